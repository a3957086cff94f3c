// See bar_chart.h.
#include "bar_chart.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>

#include "loom/Buffer.h"
#include "loom_image_io.h"

namespace loom_apps_bench {
namespace {

/** 5x7 glyphs: seven rows, the leftmost pixel in bit 4. */
struct Glyph {
    char c;
    uint8_t rows[7];
};

const Glyph glyphs[] = {
    {'0', {0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E}},
    {'1', {0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E}},
    {'2', {0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F}},
    {'3', {0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E}},
    {'4', {0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02}},
    {'5', {0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E}},
    {'6', {0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E}},
    {'7', {0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08}},
    {'8', {0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E}},
    {'9', {0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C}},
    {'.', {0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x0C}},
    {'_', {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1F}},
    {':', {0x00, 0x0C, 0x0C, 0x00, 0x0C, 0x0C, 0x00}},
    {'/', {0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x00}},
    {'(', {0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02}},
    {')', {0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08}},
    {'=', {0x00, 0x00, 0x1F, 0x00, 0x1F, 0x00, 0x00}},
    {'-', {0x00, 0x00, 0x00, 0x1F, 0x00, 0x00, 0x00}},
    {',', {0x00, 0x00, 0x00, 0x00, 0x0C, 0x04, 0x08}},
    {'a', {0x00, 0x00, 0x0E, 0x01, 0x0F, 0x11, 0x0F}},
    {'b', {0x10, 0x10, 0x16, 0x19, 0x11, 0x11, 0x1E}},
    {'c', {0x00, 0x00, 0x0E, 0x10, 0x10, 0x11, 0x0E}},
    {'d', {0x01, 0x01, 0x0D, 0x13, 0x11, 0x11, 0x0F}},
    {'e', {0x00, 0x00, 0x0E, 0x11, 0x1F, 0x10, 0x0E}},
    {'f', {0x06, 0x09, 0x08, 0x1C, 0x08, 0x08, 0x08}},
    {'g', {0x00, 0x0F, 0x11, 0x11, 0x0F, 0x01, 0x0E}},
    {'h', {0x10, 0x10, 0x16, 0x19, 0x11, 0x11, 0x11}},
    {'i', {0x04, 0x00, 0x0C, 0x04, 0x04, 0x04, 0x0E}},
    {'j', {0x02, 0x00, 0x06, 0x02, 0x02, 0x12, 0x0C}},
    {'k', {0x10, 0x10, 0x12, 0x14, 0x18, 0x14, 0x12}},
    {'l', {0x0C, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E}},
    {'m', {0x00, 0x00, 0x1A, 0x15, 0x15, 0x11, 0x11}},
    {'n', {0x00, 0x00, 0x16, 0x19, 0x11, 0x11, 0x11}},
    {'o', {0x00, 0x00, 0x0E, 0x11, 0x11, 0x11, 0x0E}},
    {'p', {0x00, 0x00, 0x1E, 0x11, 0x1E, 0x10, 0x10}},
    {'q', {0x00, 0x00, 0x0D, 0x13, 0x0F, 0x01, 0x01}},
    {'r', {0x00, 0x00, 0x16, 0x19, 0x10, 0x10, 0x10}},
    {'s', {0x00, 0x00, 0x0E, 0x10, 0x0E, 0x01, 0x1E}},
    {'t', {0x08, 0x08, 0x1C, 0x08, 0x08, 0x09, 0x06}},
    {'u', {0x00, 0x00, 0x11, 0x11, 0x11, 0x13, 0x0D}},
    {'v', {0x00, 0x00, 0x11, 0x11, 0x11, 0x0A, 0x04}},
    {'w', {0x00, 0x00, 0x11, 0x11, 0x15, 0x15, 0x0A}},
    {'x', {0x00, 0x00, 0x11, 0x0A, 0x04, 0x0A, 0x11}},
    {'y', {0x00, 0x00, 0x11, 0x11, 0x0F, 0x01, 0x0E}},
    {'z', {0x00, 0x00, 0x1F, 0x02, 0x04, 0x08, 0x1F}},
};

struct Color {
    uint8_t r, g, b;
};

const Color white{255, 255, 255}, black{0, 0, 0}, grey{170, 170, 170};
const Color first_color{58, 110, 180}, second_color{235, 140, 50};

constexpr int font_scale = 2;               // each font pixel is 2x2
constexpr int advance = 6 * font_scale;     // glyph width plus a gap
constexpr int text_height = 7 * font_scale; // one line of text

class Canvas {
public:
    Canvas(int width, int height) : image(width, height, 3) { fill(0, 0, width, height, white); }

    void fill(int x0, int y0, int x1, int y1, Color c) {
        for (int y = std::max(y0, 0); y < std::min(y1, image.height()); y++)
            for (int x = std::max(x0, 0); x < std::min(x1, image.width()); x++) {
                image(x, y, 0) = c.r;
                image(x, y, 1) = c.g;
                image(x, y, 2) = c.b;
            }
    }

    /** Text with its top-left corner at (x, y); unknown characters are blank. */
    void text(int x, int y, const std::string &s, Color c) {
        for (char ch : s) {
            char lower = char(std::tolower(static_cast<unsigned char>(ch)));
            for (const Glyph &g : glyphs)
                if (g.c == lower)
                    for (int row = 0; row < 7; row++)
                        for (int col = 0; col < 5; col++)
                            if (g.rows[row] & (0x10 >> col))
                                fill(x + col * font_scale, y + row * font_scale,
                                     x + (col + 1) * font_scale, y + (row + 1) * font_scale, c);
            x += advance;
        }
    }

    void save(const std::string &path) const { loom::image_io::save_png(image, path); }

private:
    loom::Buffer<uint8_t> image;
};

std::string two_decimals(double v) {
    char s[32];
    std::snprintf(s, sizeof(s), "%.2f", v);
    return s;
}

} // namespace

void write_bar_chart(const std::string &path, const std::string &title,
                     const std::string &first_name, const std::string &second_name,
                     const std::vector<BarRow> &rows) {
    size_t label_chars = 0;
    double largest = 1.5; // the 1.0 line never sits at the right edge
    for (const BarRow &r : rows) {
        label_chars = std::max(label_chars, r.label.size());
        largest = std::max({largest, r.first, r.second});
    }
    const int margin = 16, bar_height = 14, row_height = 2 * bar_height + 10;
    const int bars_x = margin + int(label_chars + 1) * advance, bars_width = 560;
    const int header = margin + 3 * (text_height + 8);
    const int width = bars_x + bars_width + 6 * advance + margin;
    const int height = header + int(rows.size()) * row_height + margin + text_height;
    auto x_of = [&](double v) { return bars_x + int(v / largest * bars_width + 0.5); };

    Canvas canvas(width, height);
    canvas.text(margin, margin, title, black);
    int legend_y = margin + text_height + 8;
    canvas.fill(margin, legend_y, margin + 2 * advance, legend_y + text_height, first_color);
    canvas.text(margin + 3 * advance, legend_y, first_name, black);
    legend_y += text_height + 8;
    canvas.fill(margin, legend_y, margin + 2 * advance, legend_y + text_height, second_color);
    canvas.text(margin + 3 * advance, legend_y, second_name, black);

    for (size_t i = 0; i < rows.size(); i++) {
        const BarRow &r = rows[i];
        int y = header + int(i) * row_height;
        canvas.text(margin, y + bar_height - text_height / 2, r.label, black);
        const std::pair<double, Color> bars[] = {{r.first, first_color}, {r.second, second_color}};
        for (int b = 0; b < 2; b++) {
            int top = y + b * bar_height;
            if (bars[b].first <= 0) continue;
            int end = x_of(bars[b].first);
            canvas.fill(bars_x, top + 1, end, top + bar_height - 1, bars[b].second);
            canvas.text(end + 4, top, two_decimals(bars[b].first), black);
        }
    }
    // The 1.0 line (equal speed) over the bars, and the scale's ends.
    int one = x_of(1.0), bottom = header + int(rows.size()) * row_height;
    canvas.fill(one - 1, header - 4, one + 1, bottom, grey);
    canvas.fill(bars_x, header - 4, bars_x + 1, bottom, black);
    canvas.text(bars_x, bottom + 4, "0", black);
    canvas.text(one - advance, bottom + 4, "1.0", black);
    canvas.text(x_of(largest) - 3 * advance, bottom + 4, two_decimals(largest), black);
    canvas.save(path);
}

} // namespace loom_apps_bench
