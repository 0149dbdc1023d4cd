// A fixture of the layering check: code generation may include every layer below it.
#include "ad/derive/Requests.h"
#include "ad/ir/Printer.h"
#include "transforms/UnusedParams.h"
