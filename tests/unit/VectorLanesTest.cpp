// The vector-lanes pass on hand-built IR: which reads and writes of a vector's lanes move in one
// access, and which stay one lane at a time.
#include <doctest/doctest.h>

#include <functional>

#include "ad/ir/Printer.h"
#include "transforms/VectorLanes.h"

using namespace adjoint;
using namespace adjoint::ir;

namespace {

const Type kFloat = Type::of(Scalar::Float);
const Type kInt = Type::integer();
const Type kLong = Type::integer("long");
const Type kFloats = kFloat.pointerTo(false);
const Type kVoid = Type::of(Scalar::Void);

Type lanesOf(Type t, int n) {
  t.arraySize = n;
  return t;
}

// A kernel over x (read-only), y, and their adjoints, with `i` and `o` among its locals.
Function kernel(StmtList body) {
  Function f;
  f.name = "k_vjp";
  f.kernel = true;
  f.device = false;
  f.host = false;
  f.returnType = kVoid;
  f.params = {{"x", kFloat.pointerTo(true)},
              {"y", kFloats},
              {"x_bar", kFloats, Role::Adjoint, "x"},
              {"y_bar", kFloats, Role::Adjoint, "y"}};
  StmtList all{decl("i", kInt, var("threadIdx.x", kInt)), decl("o", kLong, var("i", kInt)),
               decl("v", lanesOf(kFloat, 4), nullptr)};
  all.insert(all.end(), body.begin(), body.end());
  f.body = std::move(all);
  return f;
}

ExprPtr at(const char* buffer, ExprPtr base, int lane) {
  return index(var(buffer, kFloats), lane ? binary(Op::Add, base, number(lane, kInt)) : base);
}
ExprPtr local(int lane) { return index(var("v", lanesOf(kFloat, 4)), number(lane, kInt)); }

// The statements `make(c)` for the lanes c in `order`.
StmtList eachLane(std::initializer_list<int> order, const std::function<StmtPtr(int)>& make) {
  StmtList out;
  for (int c : order) out.push_back(make(c));
  return out;
}

std::string moved(Function f) {
  transforms::moveLanesTogether(f);
  return print(f.body);
}

// for (int k = 3; k >= 0; --k) body
StmtPtr overLanes(StmtList body, int lanes = 4) {
  ExprPtr k = var("k", kInt);
  return forStmt(decl("k", kInt, number(lanes - 1, kInt)), binary(Op::Ge, k, number(0, kInt)),
                 assign(k, Op::Sub, number(1, kInt)), std::move(body));
}

ExprPtr atLane(const char* buffer) {
  return index(var(buffer, kFloats), binary(Op::Add, var("o", kLong), var("k", kInt)));
}

}  // namespace

TEST_CASE("a run of statements over every lane of a vector is one access, in any order of its lanes") {
  ExprPtr i = var("i", kInt);
  std::string seeds =
      moved(kernel(eachLane({3, 2, 1, 0}, [&](int c) { return assign(local(c), Op::Add, at("y_bar", i, c)); })));
  CHECK(seeds.find("adjoint::add_lanes(v, y_bar + i);") != std::string::npos);
  CHECK(seeds.find("y_bar[i") == std::string::npos);
  std::string zeros = moved(
      kernel(eachLane({0, 2, 1, 3}, [&](int c) { return assign(at("y_bar", i, c), Op::Assign, number(0, kFloat)); })));
  CHECK(zeros.find("adjoint::zero_lanes<4>(y_bar + i);") != std::string::npos);
  std::string stores =
      moved(kernel(eachLane({0, 1, 2, 3}, [&](int c) { return assign(at("y", i, c), Op::Assign, local(c)); })));
  CHECK(stores.find("adjoint::copy_lanes(y + i, v);") != std::string::npos);
}

TEST_CASE("lanes stay one at a time unless a run covers each lane once, of one vector, plainly") {
  ExprPtr i = var("i", kInt), j = var("o", kLong);
  auto unchanged = [](Function f) {
    std::string before = print(f.body);
    return moved(f) == before;
  };
  auto seed = [&](int c) { return assign(local(c), Op::Add, at("y_bar", i, c)); };
  CHECK(unchanged(kernel(eachLane({3, 2, 1}, seed))));
  CHECK(unchanged(kernel(eachLane({3, 2, 1, 1}, seed))));
  // a local's lane other than the memory's
  CHECK(unchanged(
      kernel(eachLane({0, 1, 2, 3}, [&](int c) { return assign(local(3 - c), Op::Add, at("y_bar", i, c)); }))));
  // two vectors
  CHECK(unchanged(
      kernel(eachLane({0, 1, 2, 3}, [&](int c) { return assign(local(c), Op::Add, at("y_bar", c < 2 ? i : j, c)); }))));
  // atomic additions
  CHECK(unchanged(kernel(eachLane({0, 1, 2, 3}, [&](int c) {
    StmtPtr s = assign(at("y_bar", i, c), Op::Add, local(c));
    s->atomic = true;
    return s;
  }))));
}

TEST_CASE("a loop over a vector's lanes reads a read-only buffer before it and sums an adjoint to add after it") {
  // for k: x_bar[o + k] += v[k] * x[o + k];
  Function f = kernel({overLanes(
      {assign(atLane("x_bar"), Op::Add,
              binary(Op::Mul, index(var("v", lanesOf(kFloat, 4)), var("k", kInt)),
                     index(var("x", kFloat.pointerTo(true)), binary(Op::Add, var("o", kLong), var("k", kInt)))))})});
  std::string text = moved(f);
  CHECK(text.find("adjoint::copy_lanes(x_lanes, x + o);") < text.find("for ("));
  CHECK(text.find("x_bar_lanes[k] += v[k] * x_lanes[k];") != std::string::npos);
  CHECK(text.find("adjoint::add_lanes(x_bar + o, x_bar_lanes);") > text.find("x_bar_lanes[k] +="));
  CHECK(text.find("x_bar[") == std::string::npos);
}

TEST_CASE("a loop's lanes stay one at a time where it may not touch every lane, or not only those") {
  ExprPtr k = var("k", kInt), cond = binary(Op::Lt, k, var("i", kInt));
  auto unchanged = [](Function f) {
    std::string before = print(f.body);
    return moved(f) == before;
  };
  StmtPtr add = assign(atLane("x_bar"), Op::Add, number(1, kFloat));
  CHECK(unchanged(kernel({overLanes({ifStmt(cond, {add})})})));                         // under a condition
  CHECK(unchanged(kernel({overLanes({add}, 3)})));                                      // three lanes of four
  CHECK(unchanged(kernel({overLanes({add, ifStmt(cond, {jump(StmtKind::Break)})})})));  // may leave early
  CHECK(unchanged(kernel({overLanes({add, assign(index(var("x_bar", kFloats), var("i", kInt)), Op::Add,
                                                 number(1, kFloat))})})));  // another element too
  // a read in a branch of ?:
  CHECK(unchanged(kernel(
      {overLanes({assign(index(var("y", kFloats), k), Op::Assign, select(cond, atLane("x"), number(0, kFloat)))})})));
}
