#pragma once
// Threads for a study's independent runs (sweeps, maps): how many, and a
// group that starts them and always joins them.
//
// std::thread's constructor throws std::system_error when the system refuses
// a thread (a process or memory limit), and a std::thread destroyed while
// joinable calls std::terminate. A plain vector of threads therefore ends
// the whole process ("terminate called without an active exception") when
// the n-th thread cannot be made. WorkerThreads runs a task the system gives
// no thread on the calling thread instead, and joins in its destructor, so a
// refused thread costs time, never the work or the process.

#include <algorithm>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace saltus {

// More threads than this is a typo or a mutated file, not a machine: the
// largest servers have a few hundred cores.
constexpr int kMaxThreads = 1024;

// Empty when `threads` (0: all cores) is valid, else why not; `what` names it.
inline std::string check_threads(int threads, const std::string& what) {
  if (threads < 0 || threads > kMaxThreads)
    return what + " = " + std::to_string(threads) + " must be in [0, " + std::to_string(kMaxThreads) +
           "] (0: all cores)";
  return {};
}

// The threads to use for `items` independent pieces of work: `requested`, or
// all cores when 0; never more than the pieces, at least 1.
inline int worker_count(int requested, int items) {
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return std::max(1, std::min({requested > 0 ? requested : cores, items, kMaxThreads}));
}

class WorkerThreads {
 public:
  // Starts task(i) for i in [0, count); each task the system refuses a thread
  // runs at once on the calling thread.
  template <class Task>
  WorkerThreads(int count, Task task) {
    try {
      threads_.reserve(count);
      for (int i = 0; i < count; ++i) {
        try {
          threads_.emplace_back(task, i);
        } catch (const std::system_error&) {
          task(i);
        }
      }
    } catch (...) {
      join();  // a constructor that throws runs no destructor: join here, then pass it on
      throw;
    }
  }
  WorkerThreads(const WorkerThreads&) = delete;
  WorkerThreads& operator=(const WorkerThreads&) = delete;
  ~WorkerThreads() { join(); }

  void join() {
    for (auto& t : threads_)
      if (t.joinable()) t.join();
  }
  int started() const { return static_cast<int>(threads_.size()); }

 private:
  std::vector<std::thread> threads_;
};

}  // namespace saltus
