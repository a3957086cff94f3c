// Who owns the device memory of loom::Runtime::Buffer (include/LoomBuffer.h),
// checked against a fake device interface that counts what it is asked to
// do: copies share the allocation and the last one frees it, crops and
// slices release only their own handle (and keep the parent alive), wrapped
// and borrowed handles are never freed, and copy() of a device-dirty buffer
// holds the device's data.

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "LoomBuffer.h"

using loom::Runtime::Buffer;

namespace {

// "Device memory": bytes shared by an allocation and its crops.
struct FakeMemory {
    std::shared_ptr<std::vector<uint8_t>> bytes;
    int64_t offset = 0; // of the handle's first element in bytes
    enum Kind { Allocated, Crop, Wrapped } kind = Allocated;
};

struct FakeDevice {
    std::map<uint64_t, FakeMemory> memory;
    uint64_t next_handle = 100;
    int mallocs = 0, frees = 0, crops = 0, release_crops = 0, detaches = 0, copies_to_host = 0;
    bool refuse_crops = false;
    std::vector<std::string> log; // "free 100", "release_crop 101", ...
};

FakeDevice fake;

int64_t span_bytes(const loom_buffer_t *b) {
    int64_t elems = 1;
    for (int i = 0; i < b->dimensions; i++)
        elems += int64_t(b->dim[i].extent - 1) * b->dim[i].stride;
    return elems * ((b->type.bits + 7) / 8);
}

void report(void *uc, const char *message) {
    auto *context = static_cast<loom_call_context_t *>(uc);
    if (context && context->error_handler) context->error_handler(context, message);
}

int fake_malloc(void *, loom_buffer_t *b, const loom_device_interface_t *iface) {
    if (b->device) return 0;
    uint64_t handle = fake.next_handle++;
    fake.memory[handle] =
        FakeMemory{std::make_shared<std::vector<uint8_t>>(size_t(span_bytes(b)), uint8_t(0)), 0,
                   FakeMemory::Allocated};
    b->device = handle;
    b->device_interface = iface;
    fake.mallocs++;
    return 0;
}

int forget(loom_buffer_t *b, const char *what) {
    fake.log.push_back(std::string(what) + " " + std::to_string(b->device));
    fake.memory.erase(b->device);
    b->device = 0;
    b->device_interface = nullptr;
    return 0;
}

int fake_free(void *, loom_buffer_t *b) {
    fake.frees++;
    return forget(b, "free");
}

int fake_sync(void *, loom_buffer_t *) {
    return 0;
}

int fake_copy_to_host(void *, loom_buffer_t *b) {
    const FakeMemory &m = fake.memory.at(b->device);
    std::memcpy(b->host, m.bytes->data() + m.offset, size_t(span_bytes(b)));
    b->flags &= ~uint64_t(loom_buffer_flag_device_dirty);
    fake.copies_to_host++;
    return 0;
}

int fake_copy_to_device(void *uc, loom_buffer_t *b, const loom_device_interface_t *iface) {
    bool fresh = !b->device;
    fake_malloc(uc, b, iface);
    if (fresh || (b->flags & loom_buffer_flag_host_dirty)) {
        const FakeMemory &m = fake.memory.at(b->device);
        std::memcpy(m.bytes->data() + m.offset, b->host, size_t(span_bytes(b)));
    }
    b->flags &= ~uint64_t(loom_buffer_flag_host_dirty);
    return 0;
}

// A crop or slice: its host pointer says where it starts in the source.
int fake_view(void *uc, const loom_buffer_t *src, loom_buffer_t *dst) {
    if (fake.refuse_crops) {
        report(uc, "fake device: crops are switched off");
        return loom_error_code_device;
    }
    const FakeMemory &m = fake.memory.at(src->device);
    uint64_t handle = fake.next_handle++;
    fake.memory[handle] = FakeMemory{m.bytes, m.offset + (dst->host - src->host), FakeMemory::Crop};
    dst->device = handle;
    dst->device_interface = src->device_interface;
    fake.crops++;
    return 0;
}
int fake_crop(void *uc, const loom_buffer_t *src, loom_buffer_t *dst) {
    return fake_view(uc, src, dst);
}
int fake_slice(void *uc, const loom_buffer_t *src, int, int, loom_buffer_t *dst) {
    return fake_view(uc, src, dst);
}
int fake_release_crop(void *, loom_buffer_t *b) {
    fake.release_crops++;
    return forget(b, "release_crop");
}
int fake_wrap(void *, loom_buffer_t *b, uint64_t handle, const loom_device_interface_t *iface) {
    fake.memory[handle] = FakeMemory{std::make_shared<std::vector<uint8_t>>(size_t(span_bytes(b))),
                                     0, FakeMemory::Wrapped};
    b->device = handle;
    b->device_interface = iface;
    return 0;
}
int fake_detach(void *, loom_buffer_t *b) {
    fake.detaches++;
    return forget(b, "detach");
}
void fake_release(void *) {}

const loom_device_interface_t fake_interface = {fake_malloc,
                                                fake_free,
                                                fake_sync,
                                                fake_copy_to_host,
                                                fake_copy_to_device,
                                                nullptr,
                                                fake_crop,
                                                fake_slice,
                                                fake_release_crop,
                                                fake_wrap,
                                                fake_detach,
                                                fake_release,
                                                "Fake",
                                                0};

// Writes v into every element of b's device memory (as a kernel would)
// and marks b device-dirty.
void write_on_device(Buffer<int> &b, int v) {
    const FakeMemory &m = fake.memory.at(b.raw_buffer()->device);
    for (int64_t i = 0; i < span_bytes(b.raw_buffer()) / 4; i++)
        std::memcpy(m.bytes->data() + m.offset + 4 * i, &v, 4);
    b.set_device_dirty();
}

} // namespace

TEST_CASE("runtime buffer: copies share device memory and the last one frees it",
          "[aot][buffer][device]") {
    fake = FakeDevice();
    {
        Buffer<int> a(16);
        REQUIRE(a.device_malloc(&fake_interface) == 0);
        const uint64_t handle = a.raw_buffer()->device;
        Buffer<int> b = a, c;
        c = b;
        REQUIRE(b.raw_buffer()->device == handle);
        REQUIRE(c.raw_buffer()->device == handle);
        a = Buffer<int>();
        b.reset();
        REQUIRE(fake.frees == 0);
        // device_free() drops one reference; the memory stays for the others.
        Buffer<int> d = c;
        REQUIRE(d.device_free() == 0);
        REQUIRE(!d.has_device_allocation());
        REQUIRE(c.has_device_allocation());
        REQUIRE(fake.frees == 0);
        Buffer<int> moved = std::move(c);
        REQUIRE(fake.frees == 0);
        REQUIRE(moved.raw_buffer()->device == handle);
    }
    REQUIRE(fake.frees == 1);
    REQUIRE(fake.memory.empty());
    REQUIRE(fake.mallocs == 1);
}

TEST_CASE("runtime buffer: device memory a pipeline gave the buffer is owned and shared",
          "[aot][buffer][device]") {
    fake = FakeDevice();
    {
        Buffer<int> out(8);
        // Generated code allocates through the C view, not the Buffer.
        REQUIRE(fake_interface.device_malloc(nullptr, out.raw_buffer(), &fake_interface) == 0);
        Buffer<int> copy = out;
        out = Buffer<int>();
        REQUIRE(fake.frees == 0);
        REQUIRE(copy.has_device_allocation());
    }
    REQUIRE(fake.frees == 1);
    {
        Buffer<int> lone(8);
        fake_interface.device_malloc(nullptr, lone.raw_buffer(), &fake_interface);
    }
    REQUIRE(fake.frees == 2);
    REQUIRE(fake.memory.empty());
}

TEST_CASE("runtime buffer: crops and slices never free the parent's device memory",
          "[aot][buffer][device]") {
    fake = FakeDevice();
    {
        Buffer<int> parent(16, 4);
        parent.device_malloc(&fake_interface);
        const uint64_t handle = parent.raw_buffer()->device;
        {
            Buffer<int> crop = parent.cropped(0, 4, 8);
            Buffer<int> row = parent.sliced(1, 2);
            REQUIRE(fake.crops == 2);
            REQUIRE(crop.raw_buffer()->device != handle);
            REQUIRE(row.raw_buffer()->device != handle);
            Buffer<int> crop_copy = crop; // shares the crop's handle
            REQUIRE(crop_copy.raw_buffer()->device == crop.raw_buffer()->device);
        }
        REQUIRE(fake.release_crops == 2);
        REQUIRE(fake.frees == 0);
        REQUIRE(parent.has_device_allocation());

        // A crop outliving its parent keeps the parent's memory alive, and
        // releases its own handle before the parent's memory is freed.
        Buffer<int> crop = parent.cropped(1, 1, 2);
        const uint64_t crop_handle = crop.raw_buffer()->device;
        parent.reset();
        REQUIRE(fake.frees == 0);
        crop.reset();
        REQUIRE(fake.frees == 1);
        REQUIRE(fake.log.size() >= 2);
        REQUIRE(fake.log[fake.log.size() - 2] == "release_crop " + std::to_string(crop_handle));
        REQUIRE(fake.log.back() == "free " + std::to_string(handle));
    }
    REQUIRE(fake.memory.empty());

    // In place: the cropped Buffer gets a crop handle; a copy keeps the whole.
    fake = FakeDevice();
    {
        Buffer<int> whole(16);
        whole.device_malloc(&fake_interface);
        Buffer<int> cropped = whole;
        cropped.crop(0, 8, 8);
        REQUIRE(cropped.raw_buffer()->device != whole.raw_buffer()->device);
        whole.reset();
        REQUIRE(fake.frees == 0);
        Buffer<> any = cropped;
        any.slice(0, 9);
        REQUIRE(any.dimensions() == 0);
        REQUIRE(fake.crops == 2);
    }
    REQUIRE(fake.release_crops == 2);
    REQUIRE(fake.frees == 1);
    REQUIRE(fake.memory.empty());
}

TEST_CASE("runtime buffer: wrapped and borrowed device handles are never freed",
          "[aot][buffer][device]") {
    fake = FakeDevice();
    {
        Buffer<int> b(8);
        REQUIRE(b.device_wrap_native(&fake_interface, 0x5000) == 0);
        Buffer<int> copy = b;
        b.reset();
        REQUIRE(fake.detaches == 0);
    }
    REQUIRE(fake.detaches == 1);
    REQUIRE(fake.frees == 0);

    // A Buffer made from a loom_buffer_t borrows its device memory.
    Buffer<int> owner(8);
    owner.device_malloc(&fake_interface);
    {
        Buffer<int> borrowed(*owner.raw_buffer());
        REQUIRE(borrowed.raw_buffer()->device == owner.raw_buffer()->device);
        Buffer<int> copy = borrowed;
        REQUIRE(copy.device_detach_native() == loom_error_code_device); // not wrapped
    }
    REQUIRE(fake.frees == 0);
    REQUIRE(owner.has_device_allocation());
    owner.reset();
    REQUIRE(fake.frees == 1);
}

TEST_CASE("runtime buffer: copy() of a device-dirty buffer holds the device's data",
          "[aot][buffer][device]") {
    fake = FakeDevice();
    Buffer<int> b(6, 2);
    b.fill(1);
    REQUIRE(b.copy_to_device(&fake_interface) == 0);
    write_on_device(b, 7);
    REQUIRE(b(0, 0) == 1); // the host is stale until copied back
    Buffer<int> snapshot = b.copy();
    REQUIRE(!snapshot.has_device_allocation());
    REQUIRE(snapshot.all_equal(7));
    REQUIRE(!b.device_dirty()); // copied back once, into b's host memory
    REQUIRE(b.all_equal(7));

    // copy_from a device-dirty source reads the device's data too.
    write_on_device(b, 9);
    Buffer<int> target(6, 2);
    target.copy_from(b);
    REQUIRE(target.all_equal(9));
    REQUIRE(fake.copies_to_host == 2);

    // A shallow copy shares the device memory and is device-dirty as well.
    write_on_device(b, 3);
    Buffer<int> shallow = b;
    REQUIRE(shallow.device_dirty());
    REQUIRE(shallow.copy_to_host() == 0);
    REQUIRE(b(5, 1) == 3); // the host memory is shared too
}

TEST_CASE("runtime buffer: a crop the device refuses throws and leaves the buffer",
          "[aot][buffer][device]") {
    fake = FakeDevice();
    Buffer<int> b(16);
    b.device_malloc(&fake_interface);
    fake.refuse_crops = true;
    REQUIRE_THROWS_AS(b.cropped(0, 2, 4), loom::Runtime::BufferError);
    REQUIRE_THROWS_WITH(b.crop(0, 2, 4), Catch::Contains("device_crop failed") &&
                                             Catch::Contains("crops are switched off"));
    REQUIRE(b.dim(0).min() == 0);
    REQUIRE(b.dim(0).extent() == 16);
    fake.refuse_crops = false;
    b.reset();
    REQUIRE(fake.frees == 1);
    REQUIRE(fake.memory.empty());
}

namespace {
std::string last_error;
void keep_error(loom_call_context_t *, const char *message) {
    last_error = message;
}
} // namespace

TEST_CASE("runtime buffer: device_deallocate drops a clean reference and refuses dirty data",
          "[aot][buffer][device]") {
    fake = FakeDevice();
    Buffer<int> a(16);
    REQUIRE(a.device_malloc(&fake_interface) == 0);
    Buffer<int> b = a;
    // One of two references: nothing freed yet.
    REQUIRE(a.device_deallocate() == 0);
    REQUIRE(!a.has_device_allocation());
    REQUIRE(fake.frees == 0);

    // Data only the device holds is not dropped silently.
    write_on_device(b, 7);
    loom_call_context_t context{keep_error, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};
    last_error.clear();
    REQUIRE(b.device_deallocate(&context) == loom_error_code_device);
    REQUIRE(last_error.find("device_deallocate of a device-dirty buffer") != std::string::npos);
    REQUIRE(b.has_device_allocation());
    REQUIRE(b.copy_to_host() == 0);
    REQUIRE(b(3) == 7);
    // The last reference: freed.
    REQUIRE(b.device_deallocate() == 0);
    REQUIRE(fake.frees == 1);
    REQUIRE(fake.memory.empty());
}

TEST_CASE("runtime buffer: device_and_host_malloc and device_and_host_free",
          "[aot][buffer][device]") {
    fake = FakeDevice();
    Buffer<int> a(4, 3);
    a.deallocate(); // a shape only: a bounds query
    REQUIRE(a.is_bounds_query());
    REQUIRE(a.device_and_host_malloc(&fake_interface) == 0);
    REQUIRE(!a.is_bounds_query());
    REQUIRE(a.owns_host_memory());
    REQUIRE(a.has_device_allocation());
    REQUIRE(fake.mallocs == 1);
    REQUIRE(a.device_ownership() == loom::Runtime::BufferDeviceOwnership::Allocated);
    a(3, 2) = 5;
    Buffer<int> crop = a.cropped(0, 1, 2);
    REQUIRE(crop.device_ownership() == loom::Runtime::BufferDeviceOwnership::Cropped);
    crop.reset();
    Buffer<int> wrapped(4);
    REQUIRE(wrapped.device_wrap_native(&fake_interface, 9000) == 0);
    REQUIRE(wrapped.device_ownership() == loom::Runtime::BufferDeviceOwnership::WrappedNative);
    REQUIRE(wrapped.device_detach_native() == 0);
    REQUIRE(a.device_and_host_free(&fake_interface) == 0);
    REQUIRE(fake.frees == 1);
    REQUIRE(a.is_bounds_query());
    REQUIRE(!a.owns_host_memory());
    REQUIRE(a.dim(1).extent() == 3); // the shape stays
}
