// Large arrays on 2 MB pages.
//
// The solver and the player read tables of hundreds of megabytes at
// scattered places; with 4 KB pages nearly every such read also misses the
// TLB, and filling the array costs one page fault per 4 KB. Arrays of 2 MB or
// more are therefore aligned to 2 MB and marked MADV_HUGEPAGE, which the
// kernel honours when transparent huge pages are set to "madvise" or
// "always" (and ignores otherwise, leaving ordinary pages: only speed
// changes).
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <new>
#include <utility>
#include <vector>

namespace stack {

constexpr std::size_t HugePageBytes = std::size_t(2) << 20;

template <class T>
struct HugePageAllocator {
    using value_type = T;

    HugePageAllocator() = default;
    template <class U>
    HugePageAllocator(const HugePageAllocator<U>&) {}

    T* allocate(std::size_t count) {
        const std::size_t bytes = count * sizeof(T);
        if (bytes < HugePageBytes)
            return static_cast<T*>(::operator new(bytes));
        const std::size_t rounded = (bytes + HugePageBytes - 1) / HugePageBytes * HugePageBytes;
        void* memory = std::aligned_alloc(HugePageBytes, rounded);
        if (!memory)
            throw std::bad_alloc();
        ::madvise(memory, rounded, MADV_HUGEPAGE);
        return static_cast<T*>(memory);
    }
    void deallocate(T* memory, std::size_t count) {
        if (count * sizeof(T) < HugePageBytes)
            ::operator delete(memory);
        else
            std::free(memory);
    }
    // resize() leaves new elements uninitialised: the solver writes every
    // value before reading it, and skipping the zero pass saves a sweep
    // over the whole array (the kernel's pages arrive zeroed anyway).
    template <class U>
    void construct(U* pointer) noexcept {
        ::new (static_cast<void*>(pointer)) U;
    }
    template <class U, class... Arguments>
    void construct(U* pointer, Arguments&&... arguments) {
        ::new (static_cast<void*>(pointer)) U(std::forward<Arguments>(arguments)...);
    }
    template <class U>
    bool operator==(const HugePageAllocator<U>&) const {
        return true;
    }
};

template <class T>
using HugeVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace stack
