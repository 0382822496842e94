// The declaration in include/CLibFuzzer.h is all this target provides; the definition is in
// compiler-rt's libFuzzer, which `-sanitize=fuzzer` links.
#include "CLibFuzzer.h"
