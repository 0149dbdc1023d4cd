#include <doctest/doctest.h>

#include "ad/analysis/Activity.h"

using namespace adjoint::ir;
using namespace adjoint::analysis;

namespace {
const Type kDouble = Type::of(Scalar::Double);
const Type kInt = Type::integer();
}  // namespace

TEST_CASE("what depends on the differentiated parameters varies; constants and integers do not") {
  Function f;
  ExprPtr x = var("x", kDouble), c = var("c", kDouble), n = var("n", kInt);
  f.params = {{"x", kDouble}, {"c", kDouble}, {"n", kInt}};
  f.body = {decl("u", kDouble, mul(x, c)), decl("k", kDouble, mul(c, c)), decl("v", kDouble, var("k", kDouble)),
            assign(var("v", kDouble), Op::Add, var("u", kDouble))};
  Module m;
  std::set<std::string> varied = variedVariables(f, {"x"}, m);
  CHECK(varied.count("u"));
  CHECK(varied.count("v"));  // through the += of u
  CHECK_FALSE(varied.count("k"));
  CHECK_FALSE(varied.count("c"));
}

TEST_CASE("a call to a function marked nondifferentiable carries no derivative") {
  Function f, g;
  g.name = "g";
  g.returnType = kDouble;
  g.nondifferentiable = true;
  ExprPtr x = var("x", kDouble);
  f.params = {{"x", kDouble}};
  f.body = {decl("u", kDouble, call("g", {x}, kDouble))};
  Module m;
  m.functions = {g};
  CHECK_FALSE(variedVariables(f, {"x"}, m).count("u"));
}

TEST_CASE("arrays a call writes through its pointers are written, and vary with its inputs") {
  Function f, g;
  g.name = "g";
  g.params = {{"in", kDouble}, {"out", kDouble.pointerTo(false)}};
  ExprPtr x = var("x", kDouble), y = var("y", kDouble.pointerTo(false));
  f.params = {{"x", kDouble}, {"y", kDouble.pointerTo(false)}};
  f.body = {eval(call("g", {x, y}, Type::of(Scalar::Void)))};
  Module m;
  m.functions = {g};
  CHECK(writtenVariables(f.body).count("y"));
  CHECK_FALSE(assignedVariables(f.body).count("y"));
  CHECK(variedVariables(f, {"x"}, m).count("y"));
}

TEST_CASE("an update does not read the array it updates; its index and value do") {
  ExprPtr y = var("y", kDouble.pointerTo(false)), i = var("i", kInt), b = var("b", kDouble.pointerTo(true));
  StmtList body{assign(index(y, i), Op::Add, index(b, i))};
  std::set<std::string> reads = readVariablesBesidesUpdates(body);
  CHECK(reads == std::set<std::string>{"b", "i"});
  CHECK(readVariables(body).count("y"));
}
