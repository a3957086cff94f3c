// write_static_library(): an ar archive of generated objects, written with
// LLVM's archive writer (which also builds the symbol table the linker needs).

#include <llvm/Object/Archive.h>
#include <llvm/Object/ArchiveWriter.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>

#include "aot/AOTOutputs.h"
#include "ir/Error.h"

namespace loom {
namespace Internal {

void write_static_library(const std::string &filename, const std::vector<ArchiveMember> &members,
                          const Target &t) {
    std::vector<llvm::NewArchiveMember> new_members;
    for (const ArchiveMember &m : members) {
        llvm::NewArchiveMember member;
        member.Buf = llvm::MemoryBuffer::getMemBufferCopy(m.contents, m.name);
        member.MemberName = member.Buf->getBufferIdentifier();
        new_members.push_back(std::move(member));
    }
    auto kind =
        t.os == Target::OSX ? llvm::object::Archive::K_DARWIN : llvm::object::Archive::K_GNU;
    // Deterministic: no time stamps or owner ids, so rebuilding gives the same bytes.
    llvm::Error err =
        llvm::writeArchive(filename, new_members, llvm::SymtabWritingMode::NormalSymtab, kind,
                           /*Deterministic=*/true, /*Thin=*/false);
    if (err)
        user_error("Cannot write static library " << filename << ": "
                                                  << llvm::toString(std::move(err)));
}

} // namespace Internal
} // namespace loom
