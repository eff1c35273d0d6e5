#include "buffer_pool.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <map>
#include <mutex>
#include <new>
#include <string>

namespace lakestream_python {

namespace {

constexpr size_t kHugePage = size_t(2) << 20;
// Below this numpy's own allocator is as good (malloc reuses small blocks).
constexpr size_t kPoolMinBytes = size_t(1) << 20;

struct Block {
  void* data;
  size_t capacity;
};

class BufferPool {
 public:
  BufferPool() {
    const char* env = std::getenv("LAKESTREAM_PYTHON_BUFFER_POOL_MB");
    size_t mb = 1024;
    if (env != nullptr && *env != '\0') mb = std::strtoull(env, nullptr, 10);
    limit_ = mb << 20;
  }

  // The largest kept block when it holds at least `bytes`, else a new one.
  Block TakeLargest(size_t bytes) {
    {
      std::lock_guard<std::mutex> guard(mutex_);
      if (!free_.empty() && free_.rbegin()->first >= bytes) {
        auto it = std::prev(free_.end());
        Block block{it->second, it->first};
        free_.erase(it);
        kept_ -= block.capacity;
        return block;
      }
    }
    return Map(bytes);
  }

  static Block Map(size_t bytes) {
    size_t capacity = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    void* data = ::mmap(nullptr, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (data == MAP_FAILED) throw std::bad_alloc();
    ::madvise(data, capacity, MADV_HUGEPAGE);  // a hint: fine when the kernel says no
    return Block{data, capacity};
  }

  Block Take(size_t bytes) {
    {
      std::lock_guard<std::mutex> guard(mutex_);
      // The smallest kept block that fits and is at most twice the need.
      auto it = free_.lower_bound(bytes);
      if (it != free_.end() && it->first <= 2 * bytes + kHugePage) {
        Block block{it->second, it->first};
        free_.erase(it);
        kept_ -= block.capacity;
        return block;
      }
    }
    return Map(bytes);
  }

  void Give(Block block) {
    {
      std::lock_guard<std::mutex> guard(mutex_);
      if (kept_ + block.capacity <= limit_) {
        free_.emplace(block.capacity, block.data);
        kept_ += block.capacity;
        return;
      }
    }
    ::munmap(block.data, block.capacity);
  }

 private:
  std::mutex mutex_;
  std::multimap<size_t, void*> free_;  // capacity -> block
  size_t kept_ = 0;
  size_t limit_ = 0;
};

BufferPool& Pool() {
  // Never destroyed: arrays may outlive module teardown at exit.
  static auto* pool = new BufferPool();
  return *pool;
}

void ReleaseBlock(void* p) {
  auto* block = static_cast<Block*>(p);
  Pool().Give(*block);
  delete block;
}

}  // namespace

py::array NewPooledArray(const py::dtype& dtype, size_t count) {
  size_t bytes = count * static_cast<size_t>(dtype.itemsize());
  std::vector<py::ssize_t> shape{static_cast<py::ssize_t>(count)};
  if (bytes < kPoolMinBytes) return py::array(dtype, shape);
  auto* block = new Block(Pool().Take(bytes));
  py::capsule owner(block, ReleaseBlock);
  return py::array(dtype, shape, {}, block->data, owner);
}

GrowableBuffer::~GrowableBuffer() {
  if (data_ != nullptr) Pool().Give(Block{data_, capacity_});
}

void GrowableBuffer::Reserve(size_t bytes) {
  if (bytes <= capacity_) return;
  if (data_ == nullptr) {
    Block block = Pool().TakeLargest(std::max(bytes, kHugePage));
    data_ = block.data;
    capacity_ = block.capacity;
    return;
  }
  size_t capacity = std::max(bytes, capacity_ * 2);
  capacity = (capacity + kHugePage - 1) / kHugePage * kHugePage;
  void* data = ::mremap(data_, capacity_, capacity, MREMAP_MAYMOVE);
  if (data == MAP_FAILED) throw std::bad_alloc();
  ::madvise(data, capacity, MADV_HUGEPAGE);
  data_ = data;
  capacity_ = capacity;
}

py::array GrowableBuffer::Release(const py::dtype& dtype, size_t count) {
  std::vector<py::ssize_t> shape{static_cast<py::ssize_t>(count)};
  if (data_ == nullptr) return py::array(dtype, shape);
  auto* block = new Block{data_, capacity_};
  data_ = nullptr;
  capacity_ = 0;
  py::capsule owner(block, ReleaseBlock);
  return py::array(dtype, shape, {}, block->data, owner);
}

}  // namespace lakestream_python
