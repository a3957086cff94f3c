// Memory: loads and stores (dense, reversed, gathered/scattered, predicated)
// and Allocate (entry-block alloca or loom_malloc/loom_free).
//
// Alias metadata: as in Halide, distinct buffers and allocations never
// overlap (an output that is also an input is not supported). Every load and
// store carries a TBAA tag naming the memory it touches, so LLVM keeps
// accumulators of a stack allocation in registers across a loop that reads
// input buffers, and hoists loads of inputs past stores to other Funcs. The
// tag names the underlying buffer or allocation, not the Load/Store's name:
// memory_roots follows Handle lets to their root, and a name whose root is
// unknown gets no tag (it may alias anything).

#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/MDBuilder.h>

#include "codegen/llvm/CodeGen_LLVM_Visitor.h"
#include "ir/Error.h"
#include "ir/IROperator.h"

namespace loom {
namespace Internal {

namespace {

// Allocations up to this size with constant extents go on the stack.
constexpr int64_t max_stack_allocation_bytes = 16 * 1024;

bool is_predicated(const Expr &predicate) {
    return predicate.defined() && !is_const_true(predicate);
}

// A Ramp index with a scalar base and constant stride `stride`?
const Ramp *ramp_with_stride(const Expr &index, int64_t stride) {
    const Ramp *r = index.as<Ramp>();
    if (r && r->base.type().is_scalar() && is_const(r->stride, stride)) return r;
    return nullptr;
}

// Strided loads with these constant strides become dense loads and a
// shuffle (as in Halide), as long as the dense span stays this small: wider
// shuffles cost more than they save.
constexpr int max_dense_stride = 4;
constexpr int64_t max_dense_span_bits = 4096;

// A Ramp index with a scalar base and a constant stride from 2 to
// max_dense_stride? Its stride, or 0.
int small_constant_stride(const Expr &index) {
    const Ramp *r = index.as<Ramp>();
    if (!r || !r->base.type().is_scalar()) return 0;
    auto stride = as_const_int(r->stride);
    return stride && *stride >= 2 && *stride <= max_dense_stride ? int(*stride) : 0;
}

llvm::Align element_align(llvm::Module &m, llvm::Type *elem) {
    return llvm::Align(m.getDataLayout().getTypeAllocSize(elem).getFixedValue());
}

} // namespace

std::string CodeGen_LLVM::memory_root_of(const Expr &handle) const {
    if (const Call *c = handle.as<Call>()) {
        // A buffer argument's host pointer: named by the loom_buffer_t it
        // comes from, so every read of that field shares one root.
        if (c->is_intrinsic(Intrinsic::buffer_get_host) && c->args.size() == 1) {
            if (const Variable *b = c->args[0].as<Variable>()) return b->name;
        }
        return "";
    }
    if (const Variable *v = handle.as<Variable>()) {
        const std::string *root = memory_roots.find(v->name);
        return root ? *root : "";
    }
    return "";
}

void CodeGen_LLVM::tag_memory_access(llvm::Value *access, const std::string &buffer) {
    auto *inst = llvm::dyn_cast<llvm::Instruction>(access);
    const std::string *root = memory_roots.find(buffer);
    if (!inst || !root || root->empty()) return;
    // One scalar type per root under a common TBAA root: any two distinct
    // types are disjoint. Metadata nodes are uniqued, so building them again
    // for every access costs a hash lookup.
    llvm::MDBuilder md(context);
    llvm::MDNode *tbaa_root = md.createTBAARoot("Loom buffers");
    llvm::MDNode *type = md.createTBAAScalarTypeNode(*root, tbaa_root);
    inst->setMetadata(llvm::LLVMContext::MD_tbaa, md.createTBAAStructTagNode(type, type, 0));
}

Expr CodeGen_LLVM::resolve_vector_index(const Expr &index) const {
    Expr e = index;
    // A chain of lets naming lets is possible after CSE; follow it.
    for (int depth = 0; depth < 8; depth++) {
        const Variable *v = e.as<Variable>();
        if (!v) break;
        const Expr *bound = vector_lets.find(v->name);
        if (!bound) break;
        e = *bound;
    }
    return e;
}

namespace {

// An i32 index as an i64 expression with the same value. Index arithmetic is
// `nsw` (signed overflow is undefined), so sext(a + b) == sext(a) + sext(b):
// widening the operands instead of the sum lets LLVM see addresses as affine
// in the loop variables, hoist the invariant parts and step pointers, instead
// of redoing a 32-bit add and a sign extension for every load.
llvm::Value *widen_index(llvm::IRBuilder<> &b, llvm::Value *v, llvm::Type *i64, int depth = 0) {
    if (v->getType() == i64) return v;
    if (auto *c = llvm::dyn_cast<llvm::ConstantInt>(v))
        return llvm::ConstantInt::get(i64, uint64_t(c->getSExtValue()), true);
    auto *op = llvm::dyn_cast<llvm::BinaryOperator>(v);
    bool widenable =
        op && depth < 6 && op->hasNoSignedWrap() &&
        (op->getOpcode() == llvm::Instruction::Add || op->getOpcode() == llvm::Instruction::Sub ||
         op->getOpcode() == llvm::Instruction::Mul);
    if (!widenable) return b.CreateSExt(v, i64);
    llvm::Value *x = widen_index(b, op->getOperand(0), i64, depth + 1);
    llvm::Value *y = widen_index(b, op->getOperand(1), i64, depth + 1);
    llvm::Value *wide = b.CreateBinOp(op->getOpcode(), x, y);
    if (auto *inst = llvm::dyn_cast<llvm::BinaryOperator>(wide)) inst->setHasNoSignedWrap(true);
    return wide;
}

} // namespace

llvm::Value *CodeGen_LLVM::element_pointer(const std::string &buffer, llvm::Type *elem,
                                           llvm::Value *index) {
    if (module->getDataLayout().getPointerSizeInBits() == 64) {
        index = widen_index(*builder, index, i64_t);
        LoopInvariantIndex::Parts parts = invariant_index.split(*builder, index);
        if (parts.invariant) {
            // base + invariant, then + outer: LICM hoists each as far as it goes.
            llvm::Value *p = builder->CreateGEP(elem, sym_get(buffer), parts.invariant);
            if (parts.outer) p = builder->CreateGEP(elem, p, parts.outer);
            p = builder->CreateGEP(elem, p, parts.variant);
            return parts.constant ? builder->CreateGEP(elem, p, parts.constant) : p;
        }
    }
    // index = a + b or a - b with neither constant, e.g. a histogram's
    // `hist[value + (0 - hist.min.0)]`: address (base + a) + b in two steps,
    // so LICM (which reassociates GEP chains) hoists base + b out of the loop
    // when b is invariant, and the loop does one add less per access. A
    // constant addend stays outside, where it folds into the displacement.
    // Not inbounds: base + a may lie outside the buffer.
    llvm::Value *offset = nullptr;
    llvm::Value *rest = index;
    auto *op = llvm::dyn_cast<llvm::BinaryOperator>(rest);
    if (op && op->getOpcode() == llvm::Instruction::Add &&
        llvm::isa<llvm::Constant>(op->getOperand(1))) {
        offset = op->getOperand(1);
        rest = op->getOperand(0);
        op = llvm::dyn_cast<llvm::BinaryOperator>(rest);
    }
    bool split =
        op &&
        (op->getOpcode() == llvm::Instruction::Add || op->getOpcode() == llvm::Instruction::Sub) &&
        !llvm::isa<llvm::Constant>(op->getOperand(0)) &&
        !llvm::isa<llvm::Constant>(op->getOperand(1));
    if (split) {
        llvm::Value *b = op->getOperand(1);
        if (op->getOpcode() == llvm::Instruction::Sub) b = builder->CreateNeg(b);
        llvm::Value *p = builder->CreateGEP(elem, sym_get(buffer), op->getOperand(0));
        p = builder->CreateGEP(elem, p, b);
        return offset ? builder->CreateGEP(elem, p, offset) : p;
    }
    return builder->CreateInBoundsGEP(elem, sym_get(buffer), index);
}

llvm::Value *CodeGen_LLVM::vector_of_pointers(const std::string &buffer, llvm::Type *elem,
                                              const Expr &index) {
    return builder->CreateGEP(elem, sym_get(buffer), codegen(index));
}

llvm::Value *CodeGen_LLVM::predicate_mask(const Expr &predicate, int lanes) {
    if (!is_predicated(predicate)) return nullptr;
    return broadcast(codegen(predicate), lanes == 1 || predicate.type().lanes == lanes ? 1 : lanes);
}

void CodeGen_LLVM::codegen_region(const Stmt &s) {
    StridedLoadSpans spans(s, [&](const std::string &name) { return symbols.contains(name); });
    std::swap(spans, strided_spans);
    codegen(s);
    std::swap(spans, strided_spans);
}

llvm::Value *CodeGen_LLVM::strided_load(const Load *op, const Ramp *ramp, int stride,
                                        llvm::Type *elem, llvm::Align align) {
    int lanes = ramp->lanes, span = stride * lanes;
    int64_t elem_bits = int64_t(module->getDataLayout().getTypeSizeInBits(elem).getFixedValue());
    if (span * elem_bits > max_dense_span_bits) return nullptr;
    auto load = [&](llvm::Value *first, int size) {
        auto *type = llvm::FixedVectorType::get(elem, unsigned(size));
        llvm::Value *loaded =
            builder->CreateAlignedLoad(type, element_pointer(op->name, elem, first), align);
        tag_memory_access(loaded, op->name);
        return loaded;
    };
    std::vector<int> lanes_taken;
    if (auto shift = strided_spans.dense_load_shift(op->name, ramp->base, stride, lanes)) {
        // Other loads of the region read the whole span: one dense load of
        // it, shared with theirs, and every stride-th lane from `shift`.
        // The start as symbolic part + constant, so that the group's loads
        // get one address (t + 1 - 1 would be a different value to LLVM).
        auto [symbolic, constant] = split_constant_offset(ramp->base);
        Expr start = make_const(ramp->base.type(), constant - *shift);
        if (symbolic.defined()) start = is_const(start, 0) ? symbolic : Add::make(symbolic, start);
        llvm::Value *dense = load(codegen(start), span);
        for (int i = 0; i < lanes; i++) lanes_taken.push_back(*shift + stride * i);
        return builder->CreateShuffleVector(dense, llvm::PoisonValue::get(dense->getType()),
                                            lanes_taken);
    }
    // Nothing known beyond the lanes themselves: two loads of half the span,
    // one from the first lane and one ending at the last, never read outside
    // [first lane, last lane] (Halide does this for external buffers).
    int half = (span + 1) / 2;
    int64_t last = int64_t(stride) * (lanes - 1), second_start = last - (half - 1);
    llvm::Value *base = codegen(ramp->base);
    llvm::Value *low = load(base, half);
    llvm::Value *high = load(
        builder->CreateAdd(base, llvm::ConstantInt::get(base->getType(), uint64_t(second_start)),
                           "", /*HasNUW=*/false, /*HasNSW=*/true),
        half);
    for (int i = 0; i < lanes; i++) {
        int64_t at = int64_t(stride) * i;
        lanes_taken.push_back(at < half ? int(at) : int(half + at - second_start));
    }
    return builder->CreateShuffleVector(low, high, lanes_taken);
}

llvm::Value *CodeGen_LLVM::repeated_lanes_load(const Load *op, const RepeatedLanesIndex &index,
                                               llvm::Type *elem, llvm::Align align) {
    // With q = base / k + offset and r = base % k, lane j reads element
    // q + (r + j) / k: the window [q, q + (r + n - 1) / k] of `fewest`
    // elements, or one more when r >= k - spare. The window is read as
    // `fewest` elements from its first and `fewest` ending at its last (the
    // same load when there is no extra element), so nothing outside it is
    // touched, and each remainder has its own constant shuffle of the two.
    // Where the remainder is loop-invariant or known, LLVM hoists or folds
    // the choice.
    const int n = index.lanes, k = index.factor;
    const int fewest = (n - 1) / k + 1, spare = (n - 1) % k;
    Type t = index.base.type();
    Expr quotient = Div::make(index.base, make_const(t, k));
    Expr first = is_const_zero(index.offset) ? quotient : Add::make(quotient, index.offset);
    llvm::Value *first_value = codegen(first);
    llvm::Value *remainder = codegen(Mod::make(index.base, make_const(t, k)));
    auto *window_type = llvm::FixedVectorType::get(elem, unsigned(fewest));
    auto load = [&](llvm::Value *at) {
        llvm::Value *loaded =
            builder->CreateAlignedLoad(window_type, element_pointer(op->name, elem, at), align);
        tag_memory_access(loaded, op->name);
        return loaded;
    };
    llvm::Value *low = load(first_value), *high = nullptr;
    if (spare) {
        llvm::Value *extra = builder->CreateZExt(
            builder->CreateICmpSGE(remainder,
                                   llvm::ConstantInt::get(remainder->getType(), k - spare)),
            first_value->getType());
        high = load(builder->CreateAdd(first_value, extra, "", /*HasNUW=*/false,
                                       /*HasNSW=*/true));
    }
    llvm::Value *result = nullptr;
    for (int r = 0; r < k; r++) {
        int extra = spare && r >= k - spare ? 1 : 0;
        std::vector<int> lanes_taken;
        for (int j = 0; j < n; j++) {
            int e = (r + j) / k; // element of the window; beyond `fewest`: from high
            lanes_taken.push_back(e < fewest ? e : fewest + e - extra);
        }
        llvm::Value *shuffled = high ? builder->CreateShuffleVector(low, high, lanes_taken)
                                     : builder->CreateShuffleVector(
                                           low, llvm::PoisonValue::get(window_type), lanes_taken);
        if (!result) {
            result = shuffled;
            continue;
        }
        llvm::Value *is_r =
            builder->CreateICmpEQ(remainder, llvm::ConstantInt::get(remainder->getType(), r));
        result = builder->CreateSelect(is_r, shuffled, result);
    }
    return result;
}

llvm::Value *CodeGen_LLVM::clamped_ramp_load(const Load *op, const ClampedRampIndex &index,
                                             llvm::Type *elem, llvm::Align align) {
    // Lanes inside [lo, hi] read their own elements with one masked load
    // (masked-off lanes touch no memory); the others take the element at
    // lo or hi, which is the first lane's (below lo) or the last lane's
    // (above hi) element: two scalar loads of elements the lanes read.
    // Cheaper to run and to compile than the gather it replaces.
    const int n = index.lanes;
    Type t = index.base.type();
    Expr ramp = Ramp::make(index.base, make_one(t), n);
    Expr inside = And::make(GE::make(ramp, Broadcast::make(index.lo, n)),
                            LE::make(ramp, Broadcast::make(index.hi, n)));
    Expr below = LT::make(ramp, Broadcast::make(index.lo, n));
    Expr last_lane = Add::make(index.base, make_const(t, n - 1));
    auto scalar_load = [&](const Expr &at) {
        llvm::Value *loaded =
            builder->CreateAlignedLoad(elem, element_pointer(op->name, elem, codegen(at)), align);
        tag_memory_access(loaded, op->name);
        return builder->CreateVectorSplat(unsigned(n), loaded);
    };
    llvm::Value *first = scalar_load(index.lane_index(index.base));
    llvm::Value *last = scalar_load(index.lane_index(last_lane));
    llvm::Value *outside = builder->CreateSelect(codegen(below), first, last);
    Expr start = is_const_zero(index.offset) ? index.base : Add::make(index.base, index.offset);
    auto *vec_type = llvm::FixedVectorType::get(elem, unsigned(n));
    // The first lane's address may lie outside the buffer: not inbounds.
    llvm::Value *at = codegen(start);
    if (module->getDataLayout().getPointerSizeInBits() == 64) at = widen_index(*builder, at, i64_t);
    llvm::Value *loaded = builder->CreateMaskedLoad(
        vec_type, builder->CreateGEP(elem, sym_get(op->name), at), align, codegen(inside), outside);
    tag_memory_access(loaded, op->name);
    return loaded;
}

bool CodeGen_LLVM::has_native_masked_load(llvm::Type *vec_type, llvm::Align align) {
    // Without a masked load instruction for the element size (x86 before
    // AVX-512BW has none for 8- and 16-bit elements), LLVM expands a masked
    // load into a branch and a block per lane: 25 such loads in each of a
    // stencil's edge loops made 3,000 blocks and most of stencil_chain's JIT
    // time on an AVX2 machine.
    return target_machine.getTargetTransformInfo(*function).isLegalMaskedLoad(vec_type, align);
}

llvm::Value *CodeGen_LLVM::clamped_ramp_load_or_gather(const Load *op,
                                                       const ClampedRampIndex &index,
                                                       llvm::Type *elem, llvm::Align align) {
    // When all lanes lie inside [lo, hi] (everywhere but near the edges) the
    // clamp changes nothing: one dense load. Otherwise a gather of the
    // clamped lanes, which LLVM makes straight-line code.
    const int n = index.lanes;
    Type t = index.base.type();
    Expr last_lane = Add::make(index.base, make_const(t, n - 1));
    Expr inside = And::make(GE::make(index.base, index.lo), LE::make(last_lane, index.hi));
    Expr start = is_const_zero(index.offset) ? index.base : Add::make(index.base, index.offset);
    auto *vec_type = llvm::FixedVectorType::get(elem, unsigned(n));
    llvm::BasicBlock *dense_block = llvm::BasicBlock::Create(context, "unclamped_load", function);
    llvm::BasicBlock *edge_block = llvm::BasicBlock::Create(context, "clamped_gather", function);
    llvm::BasicBlock *after = llvm::BasicBlock::Create(context, "after_clamped_load", function);
    llvm::MDBuilder md(context);
    builder->CreateCondBr(codegen(inside), dense_block, edge_block, md.createLikelyBranchWeights());

    builder->SetInsertPoint(dense_block);
    llvm::Value *dense = builder->CreateAlignedLoad(
        vec_type, element_pointer(op->name, elem, codegen(start)), align);
    tag_memory_access(dense, op->name);
    llvm::BasicBlock *dense_end = builder->GetInsertBlock();
    builder->CreateBr(after);

    builder->SetInsertPoint(edge_block);
    llvm::Value *ptrs = vector_of_pointers(op->name, elem, op->index);
    llvm::Value *gathered = builder->CreateMaskedGather(vec_type, ptrs, align);
    tag_memory_access(gathered, op->name);
    llvm::BasicBlock *edge_end = builder->GetInsertBlock();
    builder->CreateBr(after);

    builder->SetInsertPoint(after);
    llvm::PHINode *phi = builder->CreatePHI(vec_type, 2);
    phi->addIncoming(dense, dense_end);
    phi->addIncoming(gathered, edge_end);
    return phi;
}

void CodeGen_LLVM::visit(const Load *op) {
    Type t = op->type;
    int lanes = t.lanes;
    llvm::Type *elem = llvm_memory_type_of(t.element_of());
    llvm::Align align = element_align(*module, elem);
    bool predicated = is_predicated(op->predicate);
    auto tagged = [&](llvm::Value *access) {
        tag_memory_access(access, op->name);
        return access;
    };

    if (lanes == 1) {
        if (!predicated) {
            llvm::Value *ptr = element_pointer(op->name, elem, codegen(op->index));
            value = from_memory(tagged(builder->CreateAlignedLoad(elem, ptr, align)), t);
            return;
        }
        // A scalar predicated load reads only when the predicate holds.
        llvm::Value *cond = codegen(op->predicate);
        llvm::BasicBlock *before = builder->GetInsertBlock();
        llvm::BasicBlock *load_block =
            llvm::BasicBlock::Create(context, "predicated_load", function);
        llvm::BasicBlock *after =
            llvm::BasicBlock::Create(context, "after_predicated_load", function);
        builder->CreateCondBr(cond, load_block, after);
        builder->SetInsertPoint(load_block);
        llvm::Value *ptr = element_pointer(op->name, elem, codegen(op->index));
        llvm::Value *loaded = tagged(builder->CreateAlignedLoad(elem, ptr, align));
        llvm::BasicBlock *load_end = builder->GetInsertBlock();
        builder->CreateBr(after);
        builder->SetInsertPoint(after);
        llvm::PHINode *phi = builder->CreatePHI(elem, 2);
        phi->addIncoming(llvm::Constant::getNullValue(elem), before);
        phi->addIncoming(loaded, load_end);
        value = from_memory(phi, t);
        return;
    }

    auto *vec_type = llvm::FixedVectorType::get(elem, unsigned(lanes));
    llvm::Value *mask = predicated ? predicate_mask(op->predicate, lanes) : nullptr;
    llvm::Value *result = nullptr;
    Expr index = resolve_vector_index(op->index);
    if (const Ramp *r = ramp_with_stride(index, 1)) {
        llvm::Value *ptr = element_pointer(op->name, elem, codegen(r->base));
        if (mask) {
            result = tagged(builder->CreateMaskedLoad(vec_type, ptr, align, mask,
                                                      llvm::Constant::getNullValue(vec_type)));
        } else {
            result = tagged(builder->CreateAlignedLoad(vec_type, ptr, align));
        }
    } else if (const Ramp *r = ramp_with_stride(index, -1); r && !mask) {
        // Reversed: one dense load ending at base, then a lane reversal.
        llvm::Value *base = codegen(r->base);
        llvm::Value *first =
            builder->CreateSub(base, llvm::ConstantInt::get(base->getType(), lanes - 1));
        llvm::Value *loaded = tagged(
            builder->CreateAlignedLoad(vec_type, element_pointer(op->name, elem, first), align));
        result = builder->CreateVectorReverse(loaded);
    } else if (int stride = small_constant_stride(index);
               stride && !mask &&
               (result = strided_load(op, index.as<Ramp>(), stride, elem, align))) {
        // Dense loads and a shuffle.
    } else if (auto repeated =
                   mask ? std::nullopt : match_repeated_lanes_index(index, [&](const Expr &e) {
                       return resolve_vector_index(e);
                   })) {
        // Upsampling (f(x / k)): dense loads and a shuffle.
        result = repeated_lanes_load(op, *repeated, elem, align);
    } else if (auto clamped =
                   mask ? std::nullopt : match_clamped_ramp_index(index, [&](const Expr &e) {
                       return resolve_vector_index(e);
                   })) {
        // A boundary condition's clamp: a masked dense load, or a dense load
        // where no lane is clamped; no gather (but at the edges).
        result = has_native_masked_load(vec_type, align)
                     ? clamped_ramp_load(op, *clamped, elem, align)
                     : clamped_ramp_load_or_gather(op, *clamped, elem, align);
    } else if (const Broadcast *b = index.as<Broadcast>();
               b && !mask && b->value.type().is_scalar()) {
        llvm::Value *ptr = element_pointer(op->name, elem, codegen(b->value));
        result = builder->CreateVectorSplat(unsigned(lanes),
                                            tagged(builder->CreateAlignedLoad(elem, ptr, align)));
    } else {
        // Unmasked, it may become a load per lane (LaneGathers.cpp).
        llvm::Value *ptrs = vector_of_pointers(op->name, elem, op->index);
        result = tagged(builder->CreateMaskedGather(vec_type, ptrs, align, mask,
                                                    llvm::Constant::getNullValue(vec_type)));
    }
    value = from_memory(result, t);
}

void CodeGen_LLVM::visit(const Store *op) {
    Type t = op->value.type();
    int lanes = t.lanes;
    llvm::Type *elem = llvm_memory_type_of(t.element_of());
    llvm::Align align = element_align(*module, elem);
    bool predicated = is_predicated(op->predicate);
    auto tagged = [&](llvm::Value *access) { tag_memory_access(access, op->name); };

    if (lanes == 1) {
        llvm::BasicBlock *after = nullptr;
        if (predicated) {
            llvm::BasicBlock *store_block =
                llvm::BasicBlock::Create(context, "predicated_store", function);
            after = llvm::BasicBlock::Create(context, "after_predicated_store", function);
            builder->CreateCondBr(codegen(op->predicate), store_block, after);
            builder->SetInsertPoint(store_block);
        }
        llvm::Value *v = to_memory(codegen(op->value), t);
        tagged(builder->CreateAlignedStore(v, element_pointer(op->name, elem, codegen(op->index)),
                                           align));
        if (after) {
            builder->CreateBr(after);
            builder->SetInsertPoint(after);
        }
        return;
    }

    llvm::Value *v = to_memory(codegen(op->value), t);
    llvm::Value *mask = predicated ? predicate_mask(op->predicate, lanes) : nullptr;
    Expr index = resolve_vector_index(op->index);
    if (const Ramp *r = ramp_with_stride(index, 1)) {
        llvm::Value *ptr = element_pointer(op->name, elem, codegen(r->base));
        if (mask) {
            tagged(builder->CreateMaskedStore(v, ptr, align, mask));
        } else if (uint64_t vector_bytes = uint64_t(lanes) * align.value();
                   op->streaming && (vector_bytes & (vector_bytes - 1)) == 0) {
            // lower/StreamingStores checked at run time that the address is
            // aligned to the whole vector: a non-temporal store (MOVNT on
            // x86) writes the line without reading it first.
            llvm::StoreInst *store = builder->CreateAlignedStore(v, ptr, llvm::Align(vector_bytes));
            llvm::Metadata *one = llvm::ConstantAsMetadata::get(builder->getInt32(1));
            store->setMetadata(llvm::LLVMContext::MD_nontemporal,
                               llvm::MDNode::get(context, {one}));
            tagged(store);
        } else {
            tagged(builder->CreateAlignedStore(v, ptr, align));
        }
    } else if (const Ramp *r = ramp_with_stride(index, -1); r && !mask) {
        llvm::Value *base = codegen(r->base);
        llvm::Value *first =
            builder->CreateSub(base, llvm::ConstantInt::get(base->getType(), lanes - 1));
        tagged(builder->CreateAlignedStore(builder->CreateVectorReverse(v),
                                           element_pointer(op->name, elem, first), align));
    } else {
        tagged(builder->CreateMaskedScatter(v, vector_of_pointers(op->name, elem, op->index), align,
                                            mask));
    }
}

void CodeGen_LLVM::visit(const Allocate *op) {
    llvm::Type *elem = llvm_memory_type_of(op->type.element_of());
    int64_t elem_bytes =
        int64_t(module->getDataLayout().getTypeAllocSize(elem).getFixedValue()) * op->type.lanes;

    int64_t constant_elements = 1;
    bool constant_size = true;
    for (const Expr &e : op->extents) {
        auto c = as_const_int(e);
        if (!c || *c < 0 || (*c > 0 && constant_elements > INT64_MAX / *c)) {
            constant_size = false;
            break;
        }
        constant_elements *= *c;
    }
    bool on_stack =
        constant_size && op->memory_type != MemoryType::Heap &&
        constant_elements <= max_stack_allocation_bytes / std::max<int64_t>(elem_bytes, 1);

    if (on_stack) {
        llvm::Value *count = llvm::ConstantInt::get(
            i64_t, uint64_t(std::max<int64_t>(constant_elements, 1) * op->type.lanes));
        llvm::Value *ptr = create_entry_alloca(elem, count, 64, op->name);
        ScopedBinding<llvm::Value *> bind(symbols, op->name, ptr);
        ScopedBinding<std::string> root(memory_roots, op->name, op->name);
        codegen(op->body);
        return;
    }

    llvm::Value *bytes = llvm::ConstantInt::get(i64_t, uint64_t(elem_bytes));
    for (const Expr &e : op->extents)
        bytes = builder->CreateMul(bytes, builder->CreateSExt(codegen(e), i64_t));
    if (op->condition.defined() && !is_const_true(op->condition)) {
        // Skipped allocations still get a (minimal) block so the pointer is valid to free.
        bytes =
            builder->CreateSelect(codegen(op->condition), bytes, llvm::ConstantInt::get(i64_t, 0));
    }
    llvm::Value *ptr = call_c_function("loom_malloc", ptr_t, {user_context(), bytes});
    ptr->setName(op->name);

    llvm::BasicBlock *failed = llvm::BasicBlock::Create(context, "malloc_failed", function);
    llvm::BasicBlock *ok = llvm::BasicBlock::Create(context, "malloc_ok", function);
    builder->CreateCondBr(builder->CreateIsNull(ptr), failed, ok);
    builder->SetInsertPoint(failed);
    return_with_cleanup(call_c_function("loom_error_out_of_memory", i32_t, {user_context()}));
    builder->SetInsertPoint(ok);

    heap_allocations.push_back({"loom_free", ptr});
    {
        ScopedBinding<llvm::Value *> bind(symbols, op->name, ptr);
        ScopedBinding<std::string> root(memory_roots, op->name, op->name);
        codegen(op->body);
    }
    // Unless a Free inside the body released it already (inject_early_frees).
    if (!heap_allocations.empty() && heap_allocations.back().value == ptr) {
        heap_allocations.pop_back();
        call_c_function("loom_free", void_t, {user_context(), ptr});
    }
}

// Heap allocations are freed when their Allocate's body ends (and on every
// early return), or earlier at a Free after their last use. Stack ones need
// nothing.
void CodeGen_LLVM::visit(const Free *op) {
    llvm::Value *ptr = sym_get(op->name);
    for (size_t i = heap_allocations.size(); i-- > 0;) {
        if (heap_allocations[i].value != ptr) continue;
        call_c_function("loom_free", void_t, {user_context(), ptr});
        heap_allocations.erase(heap_allocations.begin() + long(i));
        // Early returns from here on must not release it again: allocations
        // inside it get new cleanup blocks that skip it.
        for (size_t k = i; k < heap_allocations.size(); k++) {
            heap_allocations[k].cleanup = nullptr;
            heap_allocations[k].code = nullptr;
        }
        return;
    }
}

} // namespace Internal
} // namespace loom
