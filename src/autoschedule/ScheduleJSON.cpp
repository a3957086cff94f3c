// PipelineSchedule as JSON: every field of every Func's schedule, written
// and read with a small JSON reader of our own (the schedule needs objects,
// arrays, strings, integers, booleans and null only).

#include <fstream>
#include <map>
#include <memory>
#include <sstream>

#include "autoschedule/ScheduleUtil.h"
#include "ir/Error.h"
#include "ir/IROperator.h"
#include "ir/IRPrinter.h"
#include "loom/PipelineSchedule.h"

namespace loom {

using namespace Internal;

namespace {

/** A parsed JSON value. */
struct Json {
    enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
    bool b = false;
    int64_t n = 0;
    std::string s;
    std::vector<Json> items;
    std::map<std::string, Json> fields;

    const Json &operator[](const std::string &key) const {
        static const Json null;
        auto it = fields.find(key);
        return it == fields.end() ? null : it->second;
    }
};

class JsonReader {
    const std::string &t_;
    size_t i_ = 0;

    [[noreturn]] void fail(const std::string &what) const {
        int line = 1;
        for (size_t k = 0; k < i_ && k < t_.size(); k++) line += t_[k] == '\n';
        user_error("Schedule JSON, line " << line << ": " << what);
    }
    void skip() {
        while (i_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[i_]))) i_++;
    }
    void expect(char c) {
        skip();
        if (i_ >= t_.size() || t_[i_] != c) fail(std::string("expected '") + c + "'");
        i_++;
    }
    std::string string() {
        expect('"');
        std::string out;
        while (i_ < t_.size() && t_[i_] != '"') {
            char c = t_[i_++];
            if (c == '\\' && i_ < t_.size()) {
                char e = t_[i_++];
                c = e == 'n' ? '\n' : e == 't' ? '\t' : e;
            }
            out += c;
        }
        if (i_ >= t_.size()) fail("unterminated string");
        i_++;
        return out;
    }

public:
    explicit JsonReader(const std::string &t) : t_(t) {}
    Json value() {
        skip();
        if (i_ >= t_.size()) fail("unexpected end of the document");
        Json v;
        char c = t_[i_];
        if (c == '{') {
            v.kind = Json::Object;
            i_++;
            skip();
            if (i_ < t_.size() && t_[i_] == '}') {
                i_++;
                return v;
            }
            while (true) {
                std::string key = string();
                expect(':');
                v.fields[key] = value();
                skip();
                if (i_ < t_.size() && t_[i_] == ',') {
                    i_++;
                    continue;
                }
                expect('}');
                return v;
            }
        }
        if (c == '[') {
            v.kind = Json::Array;
            i_++;
            skip();
            if (i_ < t_.size() && t_[i_] == ']') {
                i_++;
                return v;
            }
            while (true) {
                v.items.push_back(value());
                skip();
                if (i_ < t_.size() && t_[i_] == ',') {
                    i_++;
                    continue;
                }
                expect(']');
                return v;
            }
        }
        if (c == '"') {
            v.kind = Json::String;
            v.s = string();
            return v;
        }
        for (const char *word : {"true", "false", "null"}) {
            size_t len = std::char_traits<char>::length(word);
            if (t_.compare(i_, len, word) == 0) {
                i_ += len;
                v.kind = word[0] == 'n' ? Json::Null : Json::Bool;
                v.b = word[0] == 't';
                return v;
            }
        }
        size_t start = i_;
        if (c == '-') i_++;
        while (i_ < t_.size() && std::isdigit(static_cast<unsigned char>(t_[i_]))) i_++;
        if (i_ == start || (c == '-' && i_ == start + 1)) fail("expected a value");
        v.kind = Json::Number;
        v.n = std::stoll(t_.substr(start, i_ - start));
        return v;
    }
    void finish() {
        skip();
        if (i_ != t_.size()) fail("text after the end of the document");
    }
};

std::string quote(const std::string &s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    return out + "\"";
}

// Enum names, shared by writer and reader.
const std::vector<std::string> split_kinds = {"split", "fuse", "rename"};

int enum_index(const std::vector<std::string> &names, const Json &v, const char *what) {
    for (size_t i = 0; i < names.size(); i++)
        if (v.kind == Json::String && v.s == names[i]) return int(i);
    std::string list;
    for (const std::string &n : names) list += (list.empty() ? "" : ", ") + n;
    user_error("Schedule JSON: " << what << " is " << (v.kind == Json::String ? v.s : "missing")
                                 << "; it must be one of " << list);
}

class Writer {
    std::ostringstream os_;
    const std::string *func_ = nullptr;

    std::string expr(const Expr &e) {
        if (!e.defined()) return "null";
        Expr x = e;
        if (const auto *c = x.as<Cast>()) x = c->value;
        if (auto v = as_const_int(x)) return std::to_string(*v);
        if (const auto *var = x.as<Variable>(); var && var->param.defined())
            return "{\"param\": " + quote(var->name) +
                   ", \"bits\": " + std::to_string(var->type.bits()) +
                   ", \"signed\": " + (var->type.is_uint() ? "false" : "true") + "}";
        std::ostringstream os;
        os << e;
        user_error("The schedule of Func " << *func_ << " uses " << os.str()
                                           << ", which a schedule file cannot hold; use integer "
                                              "constants or Params in schedules you save");
    }
    static std::string level(const LoopLevel &l) {
        if (l.is_root()) return "\"root\"";
        if (l.is_inlined() || !l.defined()) return "\"inlined\"";
        return "{\"func\": " + quote(l.func()) + ", \"var\": " + quote(l.var()) +
               ", \"stage\": " + std::to_string(l.stage_index()) + "}";
    }
    static std::string names(const std::vector<std::string> &v) {
        std::string s = "[";
        for (size_t i = 0; i < v.size(); i++) s += (i ? ", " : "") + quote(v[i]);
        return s + "]";
    }
    std::string bounds(const std::vector<Bound> &bs) {
        std::string s = "[";
        for (size_t i = 0; i < bs.size(); i++) {
            const Bound &b = bs[i];
            s += std::string(i ? ", " : "") + "{\"var\": " + quote(b.var) +
                 ", \"min\": " + expr(b.min) + ", \"extent\": " + expr(b.extent) +
                 ", \"modulus\": " + expr(b.modulus) + ", \"remainder\": " + expr(b.remainder) +
                 "}";
        }
        return s + "]";
    }
    void stage(const StageSchedule &s, const std::vector<std::string> &initial, bool atomic) {
        if (!s.specializations.empty())
            user_error("The schedule of Func "
                       << *func_
                       << " has specialize() branches, which a schedule file cannot hold");
        os_ << "        {\"initial_loops\": " << names(initial)
            << ", \"atomic\": " << (atomic ? "true" : "false")
            << ", \"touched\": " << (s.touched ? "true" : "false") << ",\n         \"splits\": [";
        for (size_t i = 0; i < s.splits.size(); i++) {
            const Split &sp = s.splits[i];
            os_ << (i ? ", " : "") << "{\"kind\": " << quote(split_kinds[size_t(sp.kind)])
                << ", \"old\": " << quote(sp.old_var) << ", \"outer\": " << quote(sp.outer)
                << ", \"inner\": " << quote(sp.inner) << ", \"factor\": " << expr(sp.factor)
                << ", \"exact\": " << (sp.exact ? "true" : "false")
                << ", \"tail\": " << quote(tail_strategy_names()[size_t(sp.tail)]) << "}";
        }
        os_ << "],\n         \"dims\": [";
        for (size_t i = 0; i < s.dims.size(); i++) {
            const Dim &d = s.dims[i];
            os_ << (i ? ", " : "") << "{\"var\": " << quote(d.var)
                << ", \"for_type\": " << quote(for_type_names()[size_t(d.for_type)])
                << ", \"device_api\": " << quote(device_api_names()[size_t(d.device_api)])
                << ", \"rvar\": " << (d.is_rvar ? "true" : "false") << "}";
        }
        os_ << "]}";
    }

public:
    std::string write(const PipelineSchedule &sched) {
        os_ << "{\"loom_schedule\": 1, \"funcs\": [";
        bool first = true;
        for (const PipelineSchedule::FuncEntry &e : sched.funcs()) {
            func_ = &e.func;
            const FuncSchedule &p = e.placement;
            os_ << (first ? "\n" : ",\n") << "    {\"func\": " << quote(e.func)
                << ", \"args\": " << names(e.args)
                << ",\n     \"compute\": " << level(p.compute_level)
                << ", \"store\": " << level(p.store_level)
                << ", \"store_level_set\": " << (p.store_level_set ? "true" : "false")
                << ", \"memory_type\": " << quote(memory_type_names()[size_t(p.memory_type)])
                << ",\n     \"bounds\": " << bounds(p.bounds)
                << ", \"estimates\": " << bounds(p.estimates)
                << ", \"storage_dims\": " << names(p.storage_dims) << ", \"storage_folds\": [";
            for (size_t i = 0; i < p.storage_folds.size(); i++) {
                const StorageFold &f = p.storage_folds[i];
                os_ << (i ? ", " : "") << "{\"var\": " << quote(f.var)
                    << ", \"extent\": " << expr(f.extent)
                    << ", \"forward\": " << (f.fold_forward ? "true" : "false") << "}";
            }
            os_ << "],\n     \"stages\": [\n";
            for (size_t i = 0; i < e.stages.size(); i++) {
                if (i) os_ << ",\n";
                stage(e.stages[i],
                      i < e.initial_loops.size() ? e.initial_loops[i] : std::vector<std::string>(),
                      i < e.atomic.size() && e.atomic[i]);
            }
            os_ << "]";
            if (!e.rfactor_of.empty()) os_ << ",\n     \"rfactor_of\": " << quote(e.rfactor_of);
            if (!e.wrapper.of.empty()) {
                os_ << ",\n     \"wrapper\": {\"of\": " << quote(e.wrapper.of);
                if (!e.wrapper.image.empty()) os_ << ", \"image\": " << quote(e.wrapper.image);
                os_ << ", \"callers\": [";
                for (size_t i = 0; i < e.wrapper.callers.size(); i++)
                    os_ << (i ? ", " : "") << quote(e.wrapper.callers[i]);
                os_ << "], \"clone\": " << (e.wrapper.clone ? "true" : "false");
                if (e.wrapper.buffer) os_ << ", \"buffer\": true";
                os_ << "}";
            }
            if (!e.rfactors.empty()) {
                os_ << ",\n     \"rfactors\": [";
                for (size_t i = 0; i < e.rfactors.size(); i++) {
                    const PipelineSchedule::FuncEntry::RFactor &r = e.rfactors[i];
                    os_ << (i ? ",\n" : "\n") << "      {\"stage\": " << r.stage
                        << ", \"intermediate\": " << quote(r.intermediate) << ", \"preserved\": [";
                    for (size_t k = 0; k < r.preserved.size(); k++)
                        os_ << (k ? ", " : "") << "[" << quote(r.preserved[k].first) << ", "
                            << quote(r.preserved[k].second) << "]";
                    os_ << "],\n       \"before\":\n";
                    stage(r.before, r.initial_loops, false);
                    os_ << "}";
                }
                os_ << "]";
            }
            os_ << "}";
            first = false;
        }
        os_ << "\n]}\n";
        return os_.str();
    }
};

// ---- Reading.

const Json &need(const Json &obj, const std::string &key, Json::Kind kind, const char *where) {
    const Json &v = obj[key];
    if (v.kind != kind)
        user_error("Schedule JSON: " << where << " needs a field \"" << key
                                     << "\" of the right kind");
    return v;
}

std::string str(const Json &obj, const std::string &key, const char *where) {
    return need(obj, key, Json::String, where).s;
}

bool flag(const Json &obj, const std::string &key) {
    return obj[key].kind == Json::Bool && obj[key].b;
}

std::vector<std::string> str_list(const Json &obj, const std::string &key, const char *where) {
    std::vector<std::string> out;
    for (const Json &v : need(obj, key, Json::Array, where).items) {
        if (v.kind != Json::String)
            user_error("Schedule JSON: " << where << "." << key << " must hold strings");
        out.push_back(v.s);
    }
    return out;
}

Expr read_expr(const Json &v) {
    if (v.kind == Json::Null) return Expr();
    if (v.kind == Json::Number) return Expr(int(v.n));
    if (v.kind == Json::Object && v["param"].kind == Json::String) {
        int bits = v["bits"].kind == Json::Number ? int(v["bits"].n) : 32;
        Type t = v["signed"].kind == Json::Bool && !v["signed"].b ? UInt(bits) : Int(bits);
        // A stand-in Param of this name; apply() binds it to the pipeline's.
        Parameter p(t, false, 0, v["param"].s);
        Expr e = Variable::make(t, v["param"].s, p);
        return t == Int(32) ? e : Cast::make(Int(32), e);
    }
    user_error("Schedule JSON: an integer, null or {\"param\": name} was expected");
}

LoopLevel read_level(const Json &v) {
    if (v.kind == Json::String && v.s == "root") return LoopLevel::root();
    if (v.kind == Json::String && v.s == "inlined") return LoopLevel::inlined();
    if (v.kind == Json::Object)
        return LoopLevel(str(v, "func", "a loop level"), str(v, "var", "a loop level"),
                         v["stage"].kind == Json::Number ? int(v["stage"].n) : -1);
    user_error("Schedule JSON: a loop level must be \"root\", \"inlined\" or {func, var, stage}");
}

std::vector<Bound> read_bounds(const Json &v) {
    std::vector<Bound> out;
    for (const Json &b : v.items)
        out.push_back(Bound{str(b, "var", "a bound"), read_expr(b["min"]), read_expr(b["extent"]),
                            read_expr(b["modulus"]), read_expr(b["remainder"])});
    return out;
}

/** One stage's schedule (and its loops before scheduling). */
StageSchedule read_stage(const Json &st, std::vector<std::string> *initial_loops) {
    StageSchedule ss;
    ss.touched = flag(st, "touched");
    for (const Json &sp : need(st, "splits", Json::Array, "a stage").items) {
        Split x;
        x.kind = Split::Kind(enum_index(split_kinds, sp["kind"], "a split's kind"));
        x.old_var = str(sp, "old", "a split");
        x.outer = str(sp, "outer", "a split");
        x.inner = str(sp, "inner", "a split");
        x.factor = read_expr(sp["factor"]);
        x.exact = flag(sp, "exact");
        x.tail = TailStrategy(enum_index(tail_strategy_names(), sp["tail"], "a split's tail"));
        ss.splits.push_back(x);
    }
    for (const Json &d : need(st, "dims", Json::Array, "a stage").items)
        ss.dims.push_back(
            Dim{str(d, "var", "a loop"),
                ForType(enum_index(for_type_names(), d["for_type"], "for_type")),
                DeviceAPI(enum_index(device_api_names(), d["device_api"], "device_api")),
                flag(d, "rvar")});
    *initial_loops = str_list(st, "initial_loops", "a stage");
    return ss;
}

} // namespace

std::string PipelineSchedule::to_json() const {
    return Writer().write(*this);
}

PipelineSchedule PipelineSchedule::from_json(const std::string &json) {
    JsonReader reader(json);
    Json doc = reader.value();
    reader.finish();
    if (doc.kind != Json::Object || doc["loom_schedule"].kind != Json::Number)
        user_error("Schedule JSON: not a Loom schedule (no \"loom_schedule\" version field)");
    if (doc["loom_schedule"].n != 1)
        user_error("Schedule JSON: version " << doc["loom_schedule"].n
                                             << " is not known; this Loom reads version 1");
    PipelineSchedule s;
    for (const Json &f : need(doc, "funcs", Json::Array, "the document").items) {
        FuncEntry e;
        e.func = str(f, "func", "a Func");
        e.args = str_list(f, "args", "a Func");
        FuncSchedule &p = e.placement;
        p.compute_level = read_level(f["compute"]);
        p.store_level = read_level(f["store"]);
        p.store_level_set = flag(f, "store_level_set");
        p.memory_type =
            MemoryType(enum_index(memory_type_names(), f["memory_type"], "memory_type"));
        p.bounds = read_bounds(f["bounds"]);
        p.estimates = read_bounds(f["estimates"]);
        p.storage_dims = str_list(f, "storage_dims", "a Func");
        for (const Json &fold : f["storage_folds"].items)
            p.storage_folds.push_back(StorageFold{str(fold, "var", "a storage fold"),
                                                  read_expr(fold["extent"]),
                                                  flag(fold, "forward")});
        for (const Json &st : need(f, "stages", Json::Array, "a Func").items) {
            std::vector<std::string> initial;
            e.stages.push_back(read_stage(st, &initial));
            e.atomic.push_back(flag(st, "atomic"));
            e.initial_loops.push_back(initial);
        }
        if (f["rfactor_of"].kind == Json::String) e.rfactor_of = f["rfactor_of"].s;
        if (f["wrapper"].kind == Json::Object) {
            const Json &w = f["wrapper"];
            e.wrapper.of = str(w, "of", "a wrapper");
            if (w["image"].kind == Json::String) e.wrapper.image = w["image"].s;
            e.wrapper.callers = str_list(w, "callers", "a wrapper");
            e.wrapper.clone = flag(w, "clone");
            e.wrapper.buffer = flag(w, "buffer");
        }
        for (const Json &r : f["rfactors"].items) {
            FuncEntry::RFactor x;
            x.stage = int(need(r, "stage", Json::Number, "an rfactor").n);
            x.intermediate = str(r, "intermediate", "an rfactor");
            for (const Json &pr : need(r, "preserved", Json::Array, "an rfactor").items) {
                if (pr.kind != Json::Array || pr.items.size() != 2 ||
                    pr.items[0].kind != Json::String || pr.items[1].kind != Json::String)
                    user_error("Schedule JSON: an rfactor's preserved loops must be pairs "
                               "[RVar, Var] of strings");
                x.preserved.emplace_back(pr.items[0].s, pr.items[1].s);
            }
            x.before = read_stage(need(r, "before", Json::Object, "an rfactor"), &x.initial_loops);
            e.rfactors.push_back(x);
        }
        s.funcs_.push_back(std::move(e));
    }
    return s;
}

void PipelineSchedule::save(const std::string &filename) const {
    std::string text = to_json();
    std::ofstream out(filename);
    out << text;
    if (!out) user_error("Could not write the schedule file " << filename);
}

PipelineSchedule PipelineSchedule::load(const std::string &filename) {
    std::ifstream in(filename);
    if (!in) user_error("Could not read the schedule file " << filename);
    std::stringstream ss;
    ss << in.rdbuf();
    return from_json(ss.str());
}

} // namespace loom
