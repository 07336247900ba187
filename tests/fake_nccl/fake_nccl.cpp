// The fake NCCL (a test double, never a GPU): see fake_nccl_control.h.
//
// One mutex guards every clique; a condition variable wakes the waiters when
// an operation completes, a clique forms or a comm is aborted. Operations are
// matched per clique: collectives (and splits) in issue order, position k of
// every rank together; sends with receives per (sender, receiver) pair in
// order. The rank that completes a match computes it, on the CPU, over the
// fake driver's memory.
#include "loader/cuda_abi/nccl_abi.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "fake_nccl_control.h"
#include "fake_nccl_reduce.h"

#define FAKE_NCCL_API extern "C" __attribute__((visibility("default")))

struct ncclComm;

namespace {

using fake_nccl::type_size;

#ifdef DCFAKE_NCCL_OLD
constexpr int kVersion = 21203;
#else
constexpr int kVersion = 22809;
#endif

enum class Kind { Init, AllReduce, Broadcast, Reduce, AllGather, ReduceScatter, Split, Send, Recv };

struct Clique;

struct Op {
  Kind kind;
  ncclComm* comm = nullptr;      // the issuing rank (for Init: the comm being made)
  const void* send = nullptr;
  void* recv = nullptr;
  size_t count = 0;
  ncclDataType_t type = ncclInt8;
  ncclRedOp_t op = ncclSum;
  int root = 0;                  // root, or peer for Send/Recv
  int color = 0, key = 0;        // Split
  ncclComm** out = nullptr;      // Split, Init
  std::string id;                // Init: the unique id's bytes
  int nranks = 0, rank = 0, device = -1;  // Init
  bool done = false;
  ncclResult_t result = ncclSuccess;
  std::string error;  // why it failed, for ncclGetLastError on the waiting thread
};

struct Clique {
  int nranks = 0;
  std::vector<ncclComm*> ranks;
  std::vector<std::deque<std::shared_ptr<Op>>> collectives;
  // p2p[from][to]: the sends of `from` to `to` and the receives of `to` from `from`, in order.
  std::map<std::pair<int, int>, std::deque<std::shared_ptr<Op>>> sends, recvs;
  int live = 0;
  bool formed = false;  // every rank has joined
  bool broken = false;  // a rank aborted: its peers' calls fail with ncclRemoteError
};

}  // namespace

struct ncclComm {
  std::shared_ptr<Clique> clique;
  int rank = 0;
  int device = -1;
  bool aborted = false;
  ncclResult_t async_error = ncclSuccess;
};

namespace {

std::mutex g_mu;
std::condition_variable g_cv;
std::map<std::string, std::shared_ptr<Clique>> g_forming;  // InitRank cliques by id, until complete
long g_live_comms = 0;
ncclResult_t g_async_error_all = ncclSuccess;  // dcfake_nccl_set_async_error
std::map<std::string, long> g_calls;
struct Fault {
  std::string entry;
  long from, to;
  int result;
};
std::vector<Fault> g_faults;
bool g_env_read = false;
long g_timeout_ms = 20000;
thread_local int t_group_depth = 0;
thread_local std::vector<std::shared_ptr<Op>> t_group;
thread_local ncclResult_t t_group_error = ncclSuccess;
thread_local std::string t_last_error;

void read_env_locked() {
  if (g_env_read) return;
  g_env_read = true;
  if (const char* t = std::getenv("DCFAKE_NCCL_TIMEOUT_MS")) g_timeout_ms = std::atol(t);
  if (const char* f = std::getenv("DCFAKE_NCCL_FAIL")) {
    std::string s = f;
    size_t pos = 0;
    while (pos < s.size()) {
      size_t end = s.find(',', pos);
      std::string item = s.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
      size_t a = item.find(':'), b = item.rfind(':');
      if (a != std::string::npos && b != a) {
        long nth = std::atol(item.substr(a + 1, b - a - 1).c_str());
        g_faults.push_back({item.substr(0, a), nth, nth, std::atoi(item.substr(b + 1).c_str())});
      }
      if (end == std::string::npos) break;
      pos = end + 1;
    }
  }
}

// Counts the call; returns an injected result, or ncclSuccess.
ncclResult_t enter(const char* name) {
  std::lock_guard<std::mutex> lock(g_mu);
  read_env_locked();
  long n = ++g_calls[name];
  for (const Fault& f : g_faults)
    if (f.entry == name && n >= f.from && n <= f.to) {
      t_last_error = std::string("injected fault in ") + name;
      return static_cast<ncclResult_t>(f.result);
    }
  return ncclSuccess;
}

#define ENTER(name)                              \
  do {                                           \
    ncclResult_t injected_ = enter(#name);       \
    if (injected_ != ncclSuccess) return injected_; \
  } while (0)

ncclResult_t usage(const std::string& why) {
  t_last_error = why;
  return ncclInvalidUsage;
}

int current_device() {
  // The fake driver is loaded by dccuda; find its control function there.
  static int (*fn)() = [] {
    const char* path = std::getenv("DCCUDA_DRIVER_LIBRARY");
    void* lib = path ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : nullptr;
    return lib ? reinterpret_cast<int (*)()>(dlsym(lib, "dcfake_current_device")) : nullptr;
  }();
  return fn ? fn() : -1;
}

void complete(const std::shared_ptr<Op>& op, ncclResult_t r) {
  op->result = r;
  op->done = true;
}


// Runs position 0 of every rank's collective queue (all present). g_mu held.
void run_collective(Clique& c) {
  std::vector<std::shared_ptr<Op>> ops;
  for (auto& q : c.collectives) {
    ops.push_back(q.front());
    q.pop_front();
  }
  const Op& first = *ops[0];
  for (const auto& o : ops)
    if (o->kind != first.kind || o->count != first.count || o->type != first.type || o->op != first.op ||
        o->root != first.root) {
      for (const auto& x : ops) complete(x, ncclInvalidUsage);
      return;
    }
  size_t n = first.count, size = type_size(first.type), bytes = n * size;
  int nr = c.nranks;
  switch (first.kind) {
    case Kind::AllReduce:
    case Kind::Reduce: {
      std::vector<char> acc(bytes);
      if (bytes) std::memcpy(acc.data(), ops[0]->send, bytes);
      for (int r = 1; r < nr; ++r) fake_nccl::accumulate(acc.data(), ops[r]->send, n, first.type, first.op);
      if (first.op == ncclAvg) fake_nccl::divide(acc.data(), n, first.type, nr);
      for (int r = 0; r < nr; ++r)
        if (first.kind == Kind::AllReduce || r == first.root)
          if (bytes) std::memcpy(ops[r]->recv, acc.data(), bytes);
      break;
    }
    case Kind::Broadcast: {
      std::vector<char> data(bytes);
      if (bytes) std::memcpy(data.data(), ops[first.root]->send, bytes);
      for (int r = 0; r < nr; ++r)
        if (bytes) std::memcpy(ops[r]->recv, data.data(), bytes);
      break;
    }
    case Kind::AllGather: {
      std::vector<char> data(bytes * nr);
      for (int r = 0; r < nr; ++r)
        if (bytes) std::memcpy(data.data() + r * bytes, ops[r]->send, bytes);
      for (int r = 0; r < nr; ++r)
        if (bytes) std::memcpy(ops[r]->recv, data.data(), bytes * nr);
      break;
    }
    case Kind::ReduceScatter: {
      std::vector<char> acc(bytes * nr);
      if (bytes) std::memcpy(acc.data(), ops[0]->send, bytes * nr);
      for (int r = 1; r < nr; ++r) fake_nccl::accumulate(acc.data(), ops[r]->send, n * nr, first.type, first.op);
      if (first.op == ncclAvg) fake_nccl::divide(acc.data(), n * nr, first.type, nr);
      for (int r = 0; r < nr; ++r)
        if (bytes) std::memcpy(ops[r]->recv, acc.data() + r * bytes, bytes);
      break;
    }
    case Kind::Split: {
      // Each color's ranks, ordered by (key, old rank), form a new clique.
      std::map<int, std::vector<int>> members;
      for (int r = 0; r < nr; ++r)
        if (ops[r]->color >= 0) members[ops[r]->color].push_back(r);
      for (int r = 0; r < nr; ++r)
        if (ops[r]->color < 0) *ops[r]->out = nullptr;
      for (auto& [color, list] : members) {
        std::stable_sort(list.begin(), list.end(), [&](int a, int b) { return ops[a]->key < ops[b]->key; });
        auto nc = std::make_shared<Clique>();
        nc->nranks = static_cast<int>(list.size());
        nc->collectives.resize(list.size());
        nc->formed = true;
        for (size_t i = 0; i < list.size(); ++i) {
          ncclComm* comm = new ncclComm;
          comm->clique = nc;
          comm->rank = static_cast<int>(i);
          comm->device = ops[list[i]]->comm->device;
          nc->ranks.push_back(comm);
          ++nc->live;
          ++g_live_comms;
          *ops[list[i]]->out = comm;
        }
      }
      break;
    }
    default: break;
  }
  for (const auto& o : ops) complete(o, ncclSuccess);
}

// Matches whatever can be matched in the clique. g_mu held.
void progress(Clique& c) {
  for (;;) {
    bool all = !c.collectives.empty();
    for (auto& q : c.collectives) all = all && !q.empty();
    if (!all) break;
    run_collective(c);
  }
  for (auto& [pair, sends] : c.sends) {
    auto& recvs = c.recvs[pair];
    while (!sends.empty() && !recvs.empty()) {
      auto s = sends.front(), r = recvs.front();
      sends.pop_front();
      recvs.pop_front();
      if (s->count != r->count || s->type != r->type) {
        complete(s, ncclInvalidUsage);
        complete(r, ncclInvalidUsage);
        continue;
      }
      size_t bytes = s->count * type_size(s->type);
      if (bytes) std::memmove(r->recv, s->send, bytes);
      complete(s, ncclSuccess);
      complete(r, ncclSuccess);
    }
  }
}

// Puts an issued operation where it will be matched. g_mu held.
void submit(const std::shared_ptr<Op>& op) {
  if (op->kind == Kind::Init) {
    auto& c = g_forming[op->id];
    if (!c) {
      c = std::make_shared<Clique>();
      c->nranks = op->nranks;
      c->ranks.assign(op->nranks, nullptr);
      c->collectives.resize(op->nranks);
    }
    if (c->nranks != op->nranks || c->ranks[op->rank]) {
      t_last_error = "fake NCCL: rank joined twice, or nranks differs between ranks";
      complete(op, ncclInvalidUsage);
      return;
    }
    ncclComm* comm = new ncclComm;
    comm->clique = c;
    comm->rank = op->rank;
    comm->device = op->device;
    c->ranks[op->rank] = comm;
    *op->out = comm;
    op->comm = comm;
    ++c->live;
    ++g_live_comms;
    if (std::count(c->ranks.begin(), c->ranks.end(), nullptr) == 0) {
      c->formed = true;
      g_forming.erase(op->id);
    }
    return;
  }
  Clique& c = *op->comm->clique;
  if (c.broken) {
    op->error = "fake NCCL: a peer aborted the communicator";
    complete(op, ncclRemoteError);
    return;
  }
  int me = op->comm->rank;
  if (op->kind == Kind::Send) c.sends[{me, op->root}].push_back(op);
  else if (op->kind == Kind::Recv) c.recvs[{op->root, me}].push_back(op);
  else c.collectives[me].push_back(op);
  progress(c);
}

bool finished(const Op& op) {
  if (op.done) return true;
  if (op.kind == Kind::Init) {
    // Complete when every rank of its clique has joined.
    return op.comm->clique->formed;
  }
  return false;
}

// Waits until every op is finished, its comm aborted, or the time limit. g_mu held.
ncclResult_t wait_for(std::unique_lock<std::mutex>& lock, const std::vector<std::shared_ptr<Op>>& ops) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(g_timeout_ms);
  for (;;) {
    bool all = true;
    for (const auto& o : ops) {
      if (o->done && o->result != ncclSuccess) {
        if (!o->error.empty()) t_last_error = o->error;
        return o->result;
      }
      all = all && finished(*o);
    }
    if (all) return ncclSuccess;
    if (g_cv.wait_until(lock, deadline) == std::cv_status::timeout) {
      t_last_error = "fake NCCL: waited DCFAKE_NCCL_TIMEOUT_MS for the peers (a rank that never issued the call, "
                     "or several ranks driven from one thread outside a group)";
      return ncclSystemError;
    }
  }
}

// Issues an op: into the thread's group, or now (and waits).
ncclResult_t issue(std::shared_ptr<Op> op) {
  std::unique_lock<std::mutex> lock(g_mu);
  if (op->comm && op->comm->aborted) return usage("fake NCCL: the communicator was aborted");
  if (t_group_depth > 0) {
    t_group.push_back(std::move(op));
    return ncclSuccess;
  }
  submit(op);
  g_cv.notify_all();
  return wait_for(lock, {op});
}

ncclResult_t check_pointer(const void* p, size_t count) {
  return count && !p ? usage("fake NCCL: a NULL buffer with a non-zero count") : ncclSuccess;
}

ncclResult_t check_comm(ncclComm* comm) {
  if (!comm) return usage("fake NCCL: NULL communicator");
  return ncclSuccess;
}

ncclResult_t check_type(ncclDataType_t type, ncclRedOp_t op) {
  if (type_size(type) == 0) {
    t_last_error = "fake NCCL: unknown datatype";
    return ncclInvalidArgument;
  }
  if (op < ncclSum || op > ncclAvg) {
    t_last_error = "fake NCCL: unknown reduction";
    return ncclInvalidArgument;
  }
  return ncclSuccess;
}

std::shared_ptr<Op> make(Kind kind, ncclComm* comm) {
  auto op = std::make_shared<Op>();
  op->kind = kind;
  op->comm = comm;
  return op;
}

}  // namespace

// ---- Versions, ids, errors -------------------------------------------------

FAKE_NCCL_API ncclResult_t ncclGetVersion(int* version) {
  ENTER(ncclGetVersion);
  if (!version) return ncclInvalidArgument;
  *version = kVersion;
  return ncclSuccess;
}

FAKE_NCCL_API ncclResult_t ncclGetUniqueId(ncclUniqueId* id) {
  ENTER(ncclGetUniqueId);
  if (!id) return ncclInvalidArgument;
  static std::mt19937_64 rng(std::random_device{}());
  std::lock_guard<std::mutex> lock(g_mu);
  for (size_t i = 0; i < sizeof id->internal; i += 8) {
    uint64_t v = rng();
    std::memcpy(id->internal + i, &v, 8);
  }
  return ncclSuccess;
}

FAKE_NCCL_API const char* ncclGetErrorString(ncclResult_t r) {
  switch (r) {
    case ncclSuccess: return "no error";
    case ncclUnhandledCudaError: return "unhandled cuda error";
    case ncclSystemError: return "unhandled system error";
    case ncclInternalError: return "internal error";
    case ncclInvalidArgument: return "invalid argument";
    case ncclInvalidUsage: return "invalid usage";
    case ncclRemoteError: return "remote process exited or there was a network error";
    case ncclInProgress: return "NCCL operation in progress";
  }
  return "unknown result code";
}

#ifndef DCFAKE_NCCL_OLD
FAKE_NCCL_API const char* ncclGetLastError(ncclComm_t) { return t_last_error.c_str(); }
#endif

// ---- Communicators -----------------------------------------------------------

FAKE_NCCL_API ncclResult_t ncclCommInitRank(ncclComm_t* comm, int nranks, ncclUniqueId id, int rank) {
  ENTER(ncclCommInitRank);
  if (!comm || nranks < 1 || rank < 0 || rank >= nranks) return ncclInvalidArgument;
  *comm = nullptr;
  auto op = make(Kind::Init, nullptr);
  op->id.assign(id.internal, sizeof id.internal);
  op->nranks = nranks;
  op->rank = rank;
  op->device = current_device();
  op->out = comm;
  std::unique_lock<std::mutex> lock(g_mu);
  if (t_group_depth > 0) {
    t_group.push_back(op);
    return ncclSuccess;
  }
  submit(op);
  g_cv.notify_all();
  return wait_for(lock, {op});
}

FAKE_NCCL_API ncclResult_t ncclCommInitAll(ncclComm_t* comms, int ndev, const int* devlist) {
  ENTER(ncclCommInitAll);
  if (!comms || ndev < 1) return ncclInvalidArgument;
  std::lock_guard<std::mutex> lock(g_mu);
  auto c = std::make_shared<Clique>();
  c->nranks = ndev;
  c->collectives.resize(ndev);
  for (int i = 0; i < ndev; ++i) {
    ncclComm* comm = new ncclComm;
    comm->clique = c;
    comm->rank = i;
    comm->device = devlist ? devlist[i] : i;
    c->ranks.push_back(comm);
    comms[i] = comm;
  }
  c->live = ndev;
  c->formed = true;
  g_live_comms += ndev;
  return ncclSuccess;
}

#ifndef DCFAKE_NCCL_OLD
FAKE_NCCL_API ncclResult_t ncclCommFinalize(ncclComm_t comm) {
  ENTER(ncclCommFinalize);
  return check_comm(comm);
}

FAKE_NCCL_API ncclResult_t ncclCommSplit(ncclComm_t comm, int color, int key, ncclComm_t* newcomm,
                                         ncclConfig_t* config) {
  ENTER(ncclCommSplit);
  if (ncclResult_t r = check_comm(comm)) return r;
  if (!newcomm || config) return ncclInvalidArgument;  // dccuda passes no config
  *newcomm = nullptr;
  auto op = make(Kind::Split, comm);
  op->color = color;
  op->key = key;
  op->out = newcomm;
  return issue(op);
}
#endif

namespace {

void drop_comm(ncclComm* comm) {  // g_mu held
  if (!comm->aborted) {
    --comm->clique->live;
    --g_live_comms;
  }
}

}  // namespace

FAKE_NCCL_API ncclResult_t ncclCommDestroy(ncclComm_t comm) {
  ENTER(ncclCommDestroy);
  if (ncclResult_t r = check_comm(comm)) return r;
  std::lock_guard<std::mutex> lock(g_mu);
  drop_comm(comm);
  auto& ranks = comm->clique->ranks;
  std::replace(ranks.begin(), ranks.end(), comm, static_cast<ncclComm*>(nullptr));
  delete comm;
  return ncclSuccess;
}

FAKE_NCCL_API ncclResult_t ncclCommAbort(ncclComm_t comm) {
  ENTER(ncclCommAbort);
  if (ncclResult_t r = check_comm(comm)) return r;
  // NCCL frees the communicator here, and so does the fake (once its pending
  // calls have failed): a later use of it by dccuda is a use after free, which
  // the sanitizer runs report.
  std::lock_guard<std::mutex> lock(g_mu);
  drop_comm(comm);
  comm->aborted = true;
  // The peers' pending calls fail (their GPUs would wait forever on a real
  // system, until NCCL's watchdog or their own abort), and so will later ones.
  Clique& c = *comm->clique;
  c.broken = true;
  auto fail_all = [&](std::deque<std::shared_ptr<Op>>& q) {
    for (auto& op : q) {
      op->error = op->comm == comm ? "fake NCCL: the communicator was aborted while this call waited for its peers"
                                   : "fake NCCL: a peer aborted the communicator";
      complete(op, op->comm == comm ? ncclSystemError : ncclRemoteError);
    }
    q.clear();
  };
  for (auto& q : c.collectives) fail_all(q);
  for (auto& [pair, q] : c.sends) fail_all(q);
  for (auto& [pair, q] : c.recvs) fail_all(q);
  for (ncclComm* peer : c.ranks)
    if (peer && peer != comm) peer->async_error = ncclRemoteError;
  std::replace(c.ranks.begin(), c.ranks.end(), comm, static_cast<ncclComm*>(nullptr));
  delete comm;
  g_cv.notify_all();
  return ncclSuccess;
}

FAKE_NCCL_API ncclResult_t ncclCommGetAsyncError(ncclComm_t comm, ncclResult_t* error) {
  ENTER(ncclCommGetAsyncError);
  if (ncclResult_t r = check_comm(comm)) return r;
  if (!error) return ncclInvalidArgument;
  std::lock_guard<std::mutex> lock(g_mu);
  *error = comm->async_error != ncclSuccess ? comm->async_error : g_async_error_all;
  return ncclSuccess;
}

FAKE_NCCL_API ncclResult_t ncclCommCount(const ncclComm_t comm, int* count) {
  ENTER(ncclCommCount);
  if (ncclResult_t r = check_comm(comm)) return r;
  if (!count) return ncclInvalidArgument;
  *count = comm->clique->nranks;
  return ncclSuccess;
}

FAKE_NCCL_API ncclResult_t ncclCommCuDevice(const ncclComm_t comm, int* device) {
  ENTER(ncclCommCuDevice);
  if (ncclResult_t r = check_comm(comm)) return r;
  if (!device) return ncclInvalidArgument;
  *device = comm->device;
  return ncclSuccess;
}

FAKE_NCCL_API ncclResult_t ncclCommUserRank(const ncclComm_t comm, int* rank) {
  ENTER(ncclCommUserRank);
  if (ncclResult_t r = check_comm(comm)) return r;
  if (!rank) return ncclInvalidArgument;
  *rank = comm->rank;
  return ncclSuccess;
}

// ---- Collectives -----------------------------------------------------------

FAKE_NCCL_API ncclResult_t ncclAllReduce(const void* send, void* recv, size_t count, ncclDataType_t type,
                                         ncclRedOp_t op, ncclComm_t comm, CUstream) {
  ENTER(ncclAllReduce);
  if (ncclResult_t r = check_comm(comm)) return r;
  if (ncclResult_t r = check_type(type, op)) return r;
  if (ncclResult_t r = check_pointer(send, count)) return r;
  if (ncclResult_t r = check_pointer(recv, count)) return r;
  auto o = make(Kind::AllReduce, comm);
  o->send = send, o->recv = recv, o->count = count, o->type = type, o->op = op;
  return issue(o);
}

FAKE_NCCL_API ncclResult_t ncclBroadcast(const void* send, void* recv, size_t count, ncclDataType_t type, int root,
                                         ncclComm_t comm, CUstream) {
  ENTER(ncclBroadcast);
  if (ncclResult_t r = check_comm(comm)) return r;
  if (ncclResult_t r = check_type(type, ncclSum)) return r;
  if (root < 0 || root >= comm->clique->nranks) return ncclInvalidArgument;
  if (ncclResult_t r = check_pointer(comm->rank == root ? send : recv, count)) return r;
  if (ncclResult_t r = check_pointer(recv, count)) return r;
  auto o = make(Kind::Broadcast, comm);
  o->send = send, o->recv = recv, o->count = count, o->type = type, o->root = root;
  return issue(o);
}

FAKE_NCCL_API ncclResult_t ncclReduce(const void* send, void* recv, size_t count, ncclDataType_t type,
                                      ncclRedOp_t op, int root, ncclComm_t comm, CUstream) {
  ENTER(ncclReduce);
  if (ncclResult_t r = check_comm(comm)) return r;
  if (ncclResult_t r = check_type(type, op)) return r;
  if (root < 0 || root >= comm->clique->nranks) return ncclInvalidArgument;
  if (ncclResult_t r = check_pointer(send, count)) return r;
  if (comm->rank == root)
    if (ncclResult_t r = check_pointer(recv, count)) return r;
  auto o = make(Kind::Reduce, comm);
  o->send = send, o->recv = recv, o->count = count, o->type = type, o->op = op, o->root = root;
  return issue(o);
}

FAKE_NCCL_API ncclResult_t ncclAllGather(const void* send, void* recv, size_t count, ncclDataType_t type,
                                         ncclComm_t comm, CUstream) {
  ENTER(ncclAllGather);
  if (ncclResult_t r = check_comm(comm)) return r;
  if (ncclResult_t r = check_type(type, ncclSum)) return r;
  if (ncclResult_t r = check_pointer(send, count)) return r;
  if (ncclResult_t r = check_pointer(recv, count)) return r;
  auto o = make(Kind::AllGather, comm);
  o->send = send, o->recv = recv, o->count = count, o->type = type;
  return issue(o);
}

FAKE_NCCL_API ncclResult_t ncclReduceScatter(const void* send, void* recv, size_t count, ncclDataType_t type,
                                             ncclRedOp_t op, ncclComm_t comm, CUstream) {
  ENTER(ncclReduceScatter);
  if (ncclResult_t r = check_comm(comm)) return r;
  if (ncclResult_t r = check_type(type, op)) return r;
  if (ncclResult_t r = check_pointer(send, count)) return r;
  if (ncclResult_t r = check_pointer(recv, count)) return r;
  auto o = make(Kind::ReduceScatter, comm);
  o->send = send, o->recv = recv, o->count = count, o->type = type, o->op = op;
  return issue(o);
}

FAKE_NCCL_API ncclResult_t ncclSend(const void* send, size_t count, ncclDataType_t type, int peer, ncclComm_t comm,
                                    CUstream) {
  ENTER(ncclSend);
  if (ncclResult_t r = check_comm(comm)) return r;
  if (ncclResult_t r = check_type(type, ncclSum)) return r;
  if (peer < 0 || peer >= comm->clique->nranks) return ncclInvalidArgument;
  if (ncclResult_t r = check_pointer(send, count)) return r;
  auto o = make(Kind::Send, comm);
  o->send = send, o->count = count, o->type = type, o->root = peer;
  return issue(o);
}

FAKE_NCCL_API ncclResult_t ncclRecv(void* recv, size_t count, ncclDataType_t type, int peer, ncclComm_t comm,
                                    CUstream) {
  ENTER(ncclRecv);
  if (ncclResult_t r = check_comm(comm)) return r;
  if (ncclResult_t r = check_type(type, ncclSum)) return r;
  if (peer < 0 || peer >= comm->clique->nranks) return ncclInvalidArgument;
  if (ncclResult_t r = check_pointer(recv, count)) return r;
  auto o = make(Kind::Recv, comm);
  o->recv = recv, o->count = count, o->type = type, o->root = peer;
  return issue(o);
}

FAKE_NCCL_API ncclResult_t ncclGroupStart() {
  ENTER(ncclGroupStart);
  if (t_group_depth++ == 0) t_group_error = ncclSuccess;
  return ncclSuccess;
}

FAKE_NCCL_API ncclResult_t ncclGroupEnd() {
  // An injected failure still ends the group (its calls are dropped), as a
  // failed ncclGroupEnd does.
  ncclResult_t injected = enter("ncclGroupEnd");
  if (t_group_depth == 0) return injected ? injected : usage("fake NCCL: ncclGroupEnd without ncclGroupStart");
  if (--t_group_depth > 0) return injected;
  std::vector<std::shared_ptr<Op>> ops;
  ops.swap(t_group);
  if (injected) return injected;
  std::unique_lock<std::mutex> lock(g_mu);
  for (const auto& op : ops) submit(op);
  g_cv.notify_all();
  return wait_for(lock, ops);
}

// ---- Control -----------------------------------------------------------------

FAKE_NCCL_API void dcfake_nccl_reset(void) {
  std::lock_guard<std::mutex> lock(g_mu);
  read_env_locked();
  g_faults.clear();
  g_calls.clear();
  g_async_error_all = ncclSuccess;
}

FAKE_NCCL_API void dcfake_nccl_inject(const char* entry, int nth, int result, int times) {
  std::lock_guard<std::mutex> lock(g_mu);
  read_env_locked();
  long base = g_calls[entry];
  g_faults.push_back({entry, base + nth, times < 0 ? 1L << 62 : base + nth + times - 1, result});
}

FAKE_NCCL_API long dcfake_nccl_call_count(const char* entry) {
  std::lock_guard<std::mutex> lock(g_mu);
  auto it = g_calls.find(entry);
  return it == g_calls.end() ? 0 : it->second;
}

FAKE_NCCL_API long dcfake_nccl_live_comms(void) {
  std::lock_guard<std::mutex> lock(g_mu);
  return g_live_comms;
}

FAKE_NCCL_API void dcfake_nccl_set_async_error(int result) {
  std::lock_guard<std::mutex> lock(g_mu);
  g_async_error_all = static_cast<ncclResult_t>(result);
}
