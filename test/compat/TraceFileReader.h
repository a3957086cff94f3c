// Reads a binary trace file (LOOM_TRACE_FILE / HL_TRACE_FILE) packet by
// packet, in the layout of Halide's halide_trace_packet_t, checking each
// packet's framing as it goes.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace compat {

struct TracePacket {
    uint32_t size = 0;
    int32_t id = 0;
    uint8_t code = 0, bits = 0;
    uint16_t lanes = 0;
    int32_t event = 0, parent_id = 0, value_index = 0, dimensions = 0;
    std::vector<int32_t> coordinates;
    std::vector<uint8_t> value;
    std::string func, tag;

    int32_t int32_value() const {
        int32_t v = 0;
        if (value.size() >= sizeof(v)) std::memcpy(&v, value.data(), sizeof(v));
        return v;
    }
};

inline std::vector<TracePacket> read_trace_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream os;
    os << in.rdbuf();
    const std::string bytes = os.str();
    std::vector<TracePacket> packets;
    size_t at = 0;
    auto i32 = [&](size_t offset) {
        int32_t v;
        std::memcpy(&v, bytes.data() + offset, sizeof(v));
        return v;
    };
    while (at < bytes.size()) {
        INFO("packet " << packets.size() << " at byte " << at);
        REQUIRE(bytes.size() - at >= 28);
        TracePacket p;
        p.size = uint32_t(i32(at));
        REQUIRE(p.size % 4 == 0);
        REQUIRE(p.size >= 28);
        REQUIRE(at + p.size <= bytes.size());
        p.id = i32(at + 4);
        p.code = uint8_t(bytes[at + 8]);
        p.bits = uint8_t(bytes[at + 9]);
        std::memcpy(&p.lanes, bytes.data() + at + 10, sizeof(p.lanes));
        p.event = i32(at + 12);
        p.parent_id = i32(at + 16);
        p.value_index = i32(at + 20);
        p.dimensions = i32(at + 24);
        REQUIRE(p.dimensions >= 0);
        size_t offset = at + 28;
        for (int d = 0; d < p.dimensions; d++, offset += 4) p.coordinates.push_back(i32(offset));
        size_t value_bytes = size_t(p.lanes) * ((p.bits + 7) / 8);
        p.value.assign(bytes.begin() + long(offset), bytes.begin() + long(offset + value_bytes));
        offset += value_bytes;
        const size_t end = at + p.size;
        REQUIRE(offset < end);
        p.func = bytes.c_str() + offset; // NUL-terminated inside the packet
        offset += p.func.size() + 1;
        REQUIRE(offset < end);
        p.tag = bytes.c_str() + offset;
        offset += p.tag.size() + 1;
        // Only the padding to a multiple of 4 follows, as zeros.
        REQUIRE(offset <= end);
        REQUIRE(end - offset < 4);
        for (; offset < end; offset++) REQUIRE(bytes[offset] == 0);
        packets.push_back(p);
        at = end;
    }
    return packets;
}

} // namespace compat
