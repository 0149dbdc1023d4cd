#include <doctest/doctest.h>

#include "ad/ir/Printer.h"

using namespace adjoint::ir;

namespace {
const Type kDouble = Type::of(Scalar::Double);
ExprPtr x() { return var("x", kDouble); }
ExprPtr y() { return var("y", kDouble); }
}  // namespace

TEST_CASE("builders fold zeros and ones") {
  CHECK(print(*mul(x(), number(1, kDouble))) == "x");
  CHECK(isZero(mul(x(), number(0, kDouble))));
  CHECK(print(*add(number(0, kDouble), y())) == "y");
  CHECK(print(*sub(number(0, kDouble), y())) == "-y");
  CHECK(print(*neg(neg(x()))) == "x");
  CHECK(print(*mul(neg(x()), neg(y()))) == "x * y");
  CHECK(print(*add(number(2, kDouble), number(3, kDouble))) == "5.0");
}

TEST_CASE("x * (1 / y) becomes x / y, and e + e becomes 2 * e") {
  CHECK(print(*mul(x(), div(number(1, kDouble), y()))) == "x / y");
  CHECK(print(*add(mul(x(), y()), mul(x(), y()))) == "2.0 * (x * y)");
}

TEST_CASE("printer parenthesizes by precedence") {
  CHECK(print(*mul(add(x(), y()), x())) == "(x + y) * x");
  CHECK(print(*sub(x(), sub(y(), x()))) == "x - (y - x)");
  CHECK(print(*div(x(), mul(y(), y()))) == "x / (y * y)");
  CHECK(print(*neg(add(x(), y()))) == "-(x + y)");
  CHECK(print(*select(binary(Op::Lt, x(), y()), x(), y())) == "x < y ? x : y");
}

TEST_CASE("numbers print in their shortest exact form") {
  CHECK(number(0.9, kDouble)->text == "0.9");
  CHECK(number(0.1, Type::of(Scalar::Float))->text == "0.1f");
  CHECK(number(3, Type::integer())->text == "3");
  CHECK(number(1e-300, kDouble)->text == "1e-300");
}

TEST_CASE("rootName and reads see through indexing") {
  ExprPtr a = var("a", kDouble.pointerTo(true));
  ExprPtr e = index(a, var("i", Type::integer()));
  CHECK(rootName(*e) == "a");
  CHECK(reads(e, "i"));
  CHECK_FALSE(reads(e, "j"));
}

TEST_CASE("operators are spelled as C++ spells them, in expressions and assignments") {
  CHECK(std::string(spelling(Op::Shl)) == "<<");
  CHECK(assignmentSpelling(Op::Shl) == "<<=");
  CHECK(assignmentSpelling(Op::Assign) == "=");
  CHECK(print(*unary(Op::AddressOf, x())) == "&x");
  CHECK(print(*unary(Op::Neg, x())) == "-x");
  ExprPtr n = var("n", Type::integer());
  CHECK(print(*binary(Op::Shr, n, binary(Op::Add, n, number(1, Type::integer())))) == "n >> (n + 1)");
  // Shifts keep their own operator: x <<= 2 is x = x << 2, not x < 2.
  StmtPtr s = assign(n, Op::Shl, number(2, Type::integer()));
  CHECK(print(StmtList{s}) == "n <<= 2;\n");
}

TEST_CASE("elements of 16-bit storage are read widened and stored rounded, once per store") {
  Type bf16 = Type::of(Scalar::Float).pointerTo(false);
  bf16.storage = "__nv_bfloat16";
  ExprPtr i = var("i", Type::integer()), v = var("v", Type::of(Scalar::Float));
  ExprPtr element = index(var("x_bar", bf16), i);
  CHECK(print(*binary(Op::Mul, element, v)) == "__bfloat162float(x_bar[i]) * v");
  CHECK(print(*unary(Op::AddressOf, element)) == "&x_bar[i]");
  CHECK(print(StmtList{assign(element, Op::Add, v)}) ==
        "x_bar[i] = __float2bfloat16(__bfloat162float(x_bar[i]) + v);\n");
  StmtPtr atomic = assign(element, Op::Add, v);
  atomic->atomic = true;
  CHECK(print(StmtList{atomic}) == "atomicAdd(&x_bar[i], __float2bfloat16(v));\n");
  bf16.storage = "__half";
  CHECK(bf16.paramSpelling() == "__half*");
  CHECK(print(StmtList{assign(index(var("y", bf16), i), Op::Assign, v)}) == "y[i] = __float2half(v);\n");
}

TEST_CASE("an else holding only an if prints as else if; one with a comment stays nested") {
  auto set = [](double v) { return StmtList{assign(x(), Op::Assign, number(v, kDouble))}; };
  StmtPtr chain = ifStmt(binary(Op::Lt, x(), y()), set(1), {ifStmt(binary(Op::Gt, x(), y()), set(2), set(3))});
  CHECK(print(StmtList{chain}) ==
        "if (x < y) {\n  x = 1.0;\n} else if (x > y) {\n  x = 2.0;\n} else {\n  x = 3.0;\n}\n");
  StmtPtr commented = ifStmt(binary(Op::Lt, x(), y()), set(1),
                             {withComment(ifStmt(binary(Op::Gt, x(), y()), set(2)), "line 3: case 2:")});
  CHECK(print(StmtList{commented}) ==
        "if (x < y) {\n  x = 1.0;\n} else {\n  // line 3: case 2:\n  if (x > y) {\n    x = 2.0;\n  }\n}\n");
}
