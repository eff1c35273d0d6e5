// A backstop against stack overflow in recursive passes over trees.
//
// The parser bounds every tree it returns (kMaxNestingDepth in parser.hpp),
// but later passes recurse with frames of very different sizes (a nested
// subquery or a CTE that reads another CTE costs the binder dozens of
// frames), and statements may run on threads with small stacks. Those
// passes call StackNearlyExhausted() on entry and, when it is true, end the
// statement with their typed error (BinderError in the binder) carrying
// NestedTooDeeplyMessage(), instead of letting the process die of SIGSEGV.
#pragma once

#include <string>

namespace lakestream {

// True when the calling thread has less than a reserve of its stack left:
// a quarter of the stack, at most 1 MB, which leaves room to unwind, to
// format the error and for the largest sanitizer frames.
bool StackNearlyExhausted();

// "statement is nested too deeply (<what>); simplify it: ..." naming the fix.
std::string NestedTooDeeplyMessage(const std::string& what);

}  // namespace lakestream
