#ifndef LOOM_IMAGE_IO_H
#define LOOM_IMAGE_IO_H

// PNG loading and saving for tutorials and apps (header-only; link libpng).
// Images are planar Buffers of (width, height, channels), 8 or 16 bits.

#include <png.h>

#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "loom/Buffer.h"

namespace loom {
namespace image_io {

namespace detail {
struct FileCloser {
    void operator()(FILE *f) const {
        if (f) std::fclose(f);
    }
};
using File = std::unique_ptr<FILE, FileCloser>;
} // namespace detail

/** Load an 8-bit (or 16-bit, with T = uint16_t) PNG as a (width, height, channels) Buffer. */
template <typename T = uint8_t> Buffer<T> load_png(const std::string &path) {
    static_assert(sizeof(T) <= 2, "load_png: 8- or 16-bit element types only");
    detail::File f(std::fopen(path.c_str(), "rb"));
    if (!f) throw std::runtime_error("load_png: cannot open " + path);
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png_create_info_struct(png);
    if (!png || !info || setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, nullptr);
        throw std::runtime_error("load_png: " + path + " is not a readable PNG");
    }
    png_init_io(png, f.get());
    png_read_info(png, info);
    png_set_expand(png); // palette and low-bit grey to 8 bits
    if (sizeof(T) == 1)
        png_set_strip_16(png);
    else
        png_set_swap(png); // 16-bit PNG is big-endian
    png_read_update_info(png, info);
    int width = int(png_get_image_width(png, info));
    int height = int(png_get_image_height(png, info));
    int channels = int(png_get_channels(png, info));
    int bytes_per_sample = png_get_bit_depth(png, info) == 16 ? 2 : 1;
    std::vector<uint8_t> rows(size_t(width) * size_t(height) * size_t(channels) *
                              size_t(bytes_per_sample));
    std::vector<png_bytep> row_pointers(static_cast<size_t>(height));
    size_t row_bytes = size_t(width) * size_t(channels) * size_t(bytes_per_sample);
    for (int y = 0; y < height; y++) row_pointers[size_t(y)] = rows.data() + size_t(y) * row_bytes;
    png_read_image(png, row_pointers.data());
    png_destroy_read_struct(&png, &info, nullptr);

    Buffer<T> out(width, height, channels);
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++)
            for (int c = 0; c < channels; c++) {
                size_t i = (size_t(y) * size_t(width) + size_t(x)) * size_t(channels) + size_t(c);
                if (bytes_per_sample == 2)
                    out(x, y, c) = T(reinterpret_cast<const uint16_t *>(rows.data())[i]);
                else
                    out(x, y, c) = T(rows[i]);
            }
    return out;
}

/** Save a (width, height[, channels]) Buffer of uint8 or uint16 as PNG (1-4 channels). */
template <typename T> void save_png(const Buffer<T> &image, const std::string &path) {
    static_assert(sizeof(T) <= 2, "save_png: 8- or 16-bit element types only");
    if (image.channels() < 1 || image.channels() > 4)
        throw std::runtime_error("save_png: 1 to 4 channels only");
    detail::File f(std::fopen(path.c_str(), "wb"));
    if (!f) throw std::runtime_error("save_png: cannot write " + path);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png_create_info_struct(png);
    if (!png || !info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        throw std::runtime_error("save_png: failed writing " + path);
    }
    // Read after setjmp, so that no local lives across it (-Wclobbered).
    const int width = image.width(), height = image.height(), channels = image.channels();
    static const int color_types[] = {PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA,
                                      PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGB_ALPHA};
    png_init_io(png, f.get());
    png_set_IHDR(png, info, png_uint_32(width), png_uint_32(height), int(sizeof(T) * 8),
                 color_types[channels - 1], PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    if (sizeof(T) == 2) png_set_swap(png);
    std::vector<T> row(static_cast<size_t>(width) * size_t(channels));
    int x0 = image.dimensions() > 0 ? image.min(0) : 0;
    int y0 = image.dimensions() > 1 ? image.min(1) : 0;
    int c0 = image.dimensions() > 2 ? image.min(2) : 0;
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++)
            for (int c = 0; c < channels; c++) {
                std::vector<int> pos{x0 + x};
                if (image.dimensions() > 1) pos.push_back(y0 + y);
                if (image.dimensions() > 2) pos.push_back(c0 + c);
                row[size_t(x) * size_t(channels) + size_t(c)] = image(pos);
            }
        png_write_row(png, reinterpret_cast<png_bytep>(row.data()));
    }
    png_write_end(png, nullptr);
    png_destroy_write_struct(&png, &info);
}

} // namespace image_io
} // namespace loom

#endif
