#include "lower/TouchIndex.h"

#include <vector>

#include "ir/IRVisitor.h"

namespace loom {
namespace Internal {

namespace {

int count_of(const std::map<std::string, int> &counts, const std::string &name) {
    auto it = counts.find(name);
    return it == counts.end() ? 0 : it->second;
}

int count_in(const std::map<std::string, std::map<std::string, int>> &in,
             const std::string &production, const std::string &name) {
    auto it = in.find(production);
    return it == in.end() ? 0 : count_of(it->second, name);
}

} // namespace

class TouchIndexBuilder : public IRVisitor {
    TouchIndex &index;
    std::vector<std::string> open; // productions around the visited node

    void touch(std::map<std::string, std::map<std::string, int>> &in,
               std::map<std::string, int> &total, const std::string &name) {
        total[name]++;
        for (const std::string &p : open) in[p][name]++;
    }

protected:
    using IRVisitor::visit;
    void visit(const ProducerConsumer *op) override {
        if (!op->is_producer) return IRVisitor::visit(op);
        touch(index.productions_in_, index.productions_, op->name);
        open.push_back(op->name);
        IRVisitor::visit(op);
        open.pop_back();
    }
    void visit(const Realize *op) override {
        index.realizes_[op->name]++;
        IRVisitor::visit(op);
    }
    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (op->call_type == Call::Loom || op->call_type == Call::Image)
            touch(index.reads_in_, index.reads_, op->name);
    }
    void visit(const Provide *op) override {
        IRVisitor::visit(op);
        touch(index.writes_in_, index.writes_, op->name);
    }

public:
    explicit TouchIndexBuilder(TouchIndex &i) : index(i) {}
};

TouchIndex::TouchIndex(const Stmt &s) {
    TouchIndexBuilder builder(*this);
    if (s.defined()) s.accept(&builder);
}

int TouchIndex::reads(const std::string &name) const {
    return count_of(reads_, name);
}
int TouchIndex::writes(const std::string &name) const {
    return count_of(writes_, name);
}
int TouchIndex::reads_in(const std::string &production, const std::string &name) const {
    return count_in(reads_in_, production, name);
}
int TouchIndex::writes_in(const std::string &production, const std::string &name) const {
    return count_in(writes_in_, production, name);
}
int TouchIndex::realizes(const std::string &name) const {
    return count_of(realizes_, name);
}
int TouchIndex::productions(const std::string &name) const {
    return count_of(productions_, name);
}
int TouchIndex::productions_in(const std::string &production, const std::string &name) const {
    return count_in(productions_in_, production, name);
}

} // namespace Internal
} // namespace loom
