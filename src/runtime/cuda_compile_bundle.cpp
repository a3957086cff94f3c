// The text bundle in which an AOT library carries CUDA device code (cubins,
// PTX, source), and the choice of the image to load on a given device.

#include <cstdlib>
#include <cstring>

#include "cuda_compile.h"

namespace loom_rt {

namespace {

const char base64_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

const char bundle_header[] = "//LOOM_CUDA_BUNDLE 1\n";

std::string base64_encode(const std::string &bytes) {
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        unsigned v = (unsigned char)bytes[i] << 16 | (unsigned char)bytes[i + 1] << 8 |
                     (unsigned char)bytes[i + 2];
        out += base64_alphabet[v >> 18];
        out += base64_alphabet[(v >> 12) & 63];
        out += base64_alphabet[(v >> 6) & 63];
        out += base64_alphabet[v & 63];
    }
    size_t rest = bytes.size() - i;
    if (rest > 0) {
        unsigned v = (unsigned char)bytes[i] << 16;
        if (rest == 2) v |= (unsigned char)bytes[i + 1] << 8;
        out += base64_alphabet[v >> 18];
        out += base64_alphabet[(v >> 12) & 63];
        out += rest == 2 ? base64_alphabet[(v >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

int base64_value(char c) {
    const char *at = c ? std::strchr(base64_alphabet, c) : nullptr;
    return at ? int(at - base64_alphabet) : -1;
}

// Decodes padded base64; false when the text is not (bad length, a
// character outside the alphabet, misplaced padding).
bool base64_decode(const char *text, size_t size, std::string *bytes) {
    if (size % 4 != 0) return false;
    bytes->clear();
    bytes->reserve(size / 4 * 3);
    for (size_t i = 0; i < size; i += 4) {
        bool last = i + 4 == size;
        int pad = 0;
        if (last && text[i + 3] == '=') pad = text[i + 2] == '=' ? 2 : 1;
        unsigned v = 0;
        for (int k = 0; k < 4; k++) {
            int d = k >= 4 - pad ? 0 : base64_value(text[i + k]);
            if (d < 0) return false;
            v = v << 6 | unsigned(d);
        }
        bytes->push_back(char(v >> 16));
        if (pad < 2) bytes->push_back(char((v >> 8) & 255));
        if (pad < 1) bytes->push_back(char(v & 255));
    }
    return true;
}

} // namespace

std::string cuda_bundle_encode(const CudaBundle &bundle) {
    std::string out = bundle_header;
    for (const CudaBundle::Image &image : bundle.images)
        out += std::string(image.is_cubin ? "//cubin " : "//ptx ") +
               std::to_string(image.capability) + " " + base64_encode(image.data) + "\n";
    out += bundle.source;
    return out;
}

bool is_cuda_bundle(const char *text) {
    return text && std::strncmp(text, bundle_header, sizeof(bundle_header) - 1) == 0;
}

bool cuda_bundle_decode(const char *text, CudaBundle *bundle, std::string *error) {
    auto fail = [&](const std::string &why) {
        if (error) *error = "malformed CUDA device-code bundle: " + why;
        return false;
    };
    if (!is_cuda_bundle(text)) return fail("it does not start with \"//LOOM_CUDA_BUNDLE 1\"");
    CudaBundle decoded;
    const char *at = text + sizeof(bundle_header) - 1;
    for (int line = 2;; line++) {
        bool cubin = std::strncmp(at, "//cubin ", 8) == 0;
        bool ptx = std::strncmp(at, "//ptx ", 6) == 0;
        if (!cubin && !ptx) break;
        const char *end = std::strchr(at, '\n');
        if (!end) return fail("image line " + std::to_string(line) + " has no end of line");
        const char *p = at + (cubin ? 8 : 6);
        char *after_number = nullptr;
        long capability = std::strtol(p, &after_number, 10);
        if (after_number == p || *after_number != ' ' || capability < 10 || capability > 1000)
            return fail("image line " + std::to_string(line) +
                        " does not give a compute capability (like 75 or 90) after \"" +
                        (cubin ? "//cubin" : "//ptx") + "\"");
        const char *data = after_number + 1;
        CudaBundle::Image image;
        image.capability = int(capability);
        image.is_cubin = cubin;
        if (!base64_decode(data, size_t(end - data), &image.data) || image.data.empty())
            return fail("image line " + std::to_string(line) + " (" + (cubin ? "cubin" : "PTX") +
                        " for " + std::to_string(capability) + ") is not valid base64 data");
        decoded.images.push_back(std::move(image));
        at = end + 1;
    }
    decoded.source = at;
    *bundle = std::move(decoded);
    return true;
}

const CudaBundle::Image *cuda_bundle_select(const CudaBundle &bundle, int device_capability) {
    // A cubin runs only on its own major version, at its minor or later; PTX
    // is compiled by the driver for any device at its capability or later.
    const CudaBundle::Image *best_cubin = nullptr, *best_ptx = nullptr;
    for (const CudaBundle::Image &image : bundle.images) {
        if (image.capability > device_capability) continue;
        if (image.is_cubin) {
            if (image.capability / 10 == device_capability / 10 &&
                (!best_cubin || image.capability > best_cubin->capability))
                best_cubin = &image;
        } else if (!best_ptx || image.capability > best_ptx->capability) {
            best_ptx = &image;
        }
    }
    return best_cubin ? best_cubin : best_ptx;
}

} // namespace loom_rt
