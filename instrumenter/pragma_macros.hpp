// Headers as Clang is to read them. A macro whose body is a pragma line
// (`#define OMP_FOR #pragma omp for`) works only in builds that preprocess to text and then
// compile the text, where GCC has put the pragma on a line of its own; parsing the source,
// Clang meets `#` and `pragma` in the middle of a statement and gives up. For the parse,
// headers that define such a macro are read with `_Pragma("...")` as its body, which means
// the same; nothing else changes, and what the compiler builds is untouched.
#pragma once

#include <llvm/ADT/IntrusiveRefCntPtr.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <string>
#include <vector>

namespace idb::instr {

// `text` with every one-line `#define NAME #pragma ...` spelled `#define NAME
// _Pragma("...")`; the same text when it has none. Lines keep their number.
std::string spell_pragma_macros(const std::string &text);

// `base` with every file but the sources being instrumented (`sources`, absolute paths)
// read through spell_pragma_macros: the instrumented output is the source's own text.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
pragma_macro_filesystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> base,
                        const std::vector<std::string> &sources);

} // namespace idb::instr
