"""The pieces of abi/check_abi.py, one concern per module (see abi/README.md)."""
