"""The generators of abi/gen.py: one module per output family, each with generate(ctx)."""
