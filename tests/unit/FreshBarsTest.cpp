// fresh-bars on hand-built vjp kernels: which additions into an input's adjoint become stores
// under adjoint::Bars::fresh, and which seed zeroings it leaves out.
#include <doctest/doctest.h>

#include "HandBuiltIr.h"
#include "ad/ir/Printer.h"
#include "transforms/FreshBars.h"

using namespace adjoint;
using namespace adjoint::handbuilt;
using namespace adjoint::ir;

namespace {

const Type kConstFloats = kFloat.pointerTo(true);

const ExprPtr i = var("i", kInt), j = var("j", kInt), n = var("n", kInt);
const ExprPtr x = var("x", kConstFloats), y = var("y", kFloats);
const ExprPtr xBar = var("x_bar", kFloats), yBar = var("y_bar", kFloats), v = var("v_bar", kFloat);

StmtPtr addTo(ExprPtr at, ExprPtr value = v) { return assign(index(xBar, std::move(at)), Op::Add, std::move(value)); }
StmtPtr zeroSeed(ExprPtr at = i) { return assign(index(yBar, std::move(at)), Op::Assign, number(0, kFloat)); }
StmtPtr loopOver(const ExprPtr& counter, StmtList body) {
  return forStmt(decl(counter->text, kInt, number(0, kInt)), binary(Op::Lt, counter, n),
                 assign(counter, Op::Add, number(1, kInt)), std::move(body));
}

// The forward y[i] = f(x[i]) (or, with `inPlace`, also x written), its vjp with `body` after the
// load of the seed.
struct Kernel {
  Function primal, vjp;
  explicit Kernel(StmtList body, bool inPlace = false) {
    primal.name = "map";
    primal.kernel = true;
    primal.params = {{"x", inPlace ? kFloats : kConstFloats}, {"y", kFloats}, {"n", kInt}};
    primal.body = {assign(index(y, i), Op::Assign, index(x, i))};
    if (inPlace) primal.body.push_back(assign(index(x, i), Op::Assign, number(0, kFloat)));
    vjp = kernel("map_vjp", {{"x", kConstFloats},
                             {"y", kFloats},
                             {"n", kInt},
                             {"x_bar", kFloats, Role::Adjoint, "x"},
                             {"y_bar", kFloats, Role::Adjoint, "y"}});
    vjp.primal = "map";
    vjp.body = {decl("i", kInt, number(0, kInt)), decl("v_bar", kFloat, index(yBar, i))};
    vjp.body.insert(vjp.body.end(), body.begin(), body.end());
    transforms::allowFreshBars(vjp, primal);
  }
  std::string text() const { return print(vjp.body); }
  bool takesFresh() const { return vjp.takesFreshBars(); }
};

}  // namespace

TEST_CASE("a map's input adjoint is stored and its seed left when the caller passes fresh") {
  Kernel k({addTo(i), zeroSeed()});
  std::string text = k.text();
  CHECK(text.find("if (fresh_bars) {\n  x_bar[i] = v_bar;\n} else {\n  x_bar[i] += v_bar;\n}") != std::string::npos);
  CHECK(text.find("if (!fresh_bars) {\n  y_bar[i] = 0.0f;\n}") != std::string::npos);
  CHECK(k.takesFresh());
  CHECK(k.vjp.storedWhenFresh == std::set<std::string>{"x_bar"});
  CHECK(k.vjp.seedsKeptWhenFresh == std::set<std::string>{"y_bar"});
}

TEST_CASE("the lanes of one index are stored together") {
  ExprPtr base = mul(number(4, kInt), i);
  Kernel k({addTo(base), addTo(add(base, number(1, kInt))), zeroSeed()});
  std::string text = k.text();
  CHECK(text.find("x_bar[4 * i] = v_bar;\n  x_bar[4 * i + 1] = v_bar;") != std::string::npos);
}

TEST_CASE("an element that gets two additions keeps both") {
  Kernel k({addTo(i), addTo(i, mul(v, v))});
  CHECK(k.text().find("fresh_bars") == std::string::npos);
  CHECK(!k.takesFresh());
}

TEST_CASE("in a loop, only at an index the loop's counter steps") {
  Kernel stepped({loopOver(j, {addTo(add(mul(i, n), j))})});
  CHECK(stepped.vjp.storedWhenFresh.count("x_bar"));
  Kernel repeated({loopOver(j, {addTo(i)})});
  CHECK(!repeated.vjp.storedWhenFresh.count("x_bar"));
  // j = (j + 1) & 1 comes back to a value: the index with it too
  StmtPtr wrapping = loopOver(j, {addTo(add(mul(i, n), j))});
  wrapping->step = assign(j, Op::Assign, binary(Op::BitAnd, add(j, number(1, kInt)), number(1, kInt)));
  CHECK(!Kernel({wrapping}).vjp.storedWhenFresh.count("x_bar"));
}

TEST_CASE("not an atomic addition, nor the adjoint of an array the kernel writes") {
  StmtPtr atomicAdd = addTo(i);
  atomicAdd->atomic = true;
  CHECK(!Kernel({atomicAdd}).vjp.storedWhenFresh.count("x_bar"));
  CHECK(!Kernel({addTo(i)}, true).vjp.storedWhenFresh.count("x_bar"));
}

TEST_CASE("a seed zeroing that something reads after stays, or in a loop, another element or a barrier") {
  StmtPtr barrier = eval(call("__syncthreads", {}, Type::of(Scalar::Void)));
  CHECK(Kernel({zeroSeed(), barrier}).vjp.seedsKeptWhenFresh.count("y_bar"));
  CHECK(Kernel({zeroSeed(), assign(v, Op::Add, index(yBar, i))}).vjp.seedsKeptWhenFresh.empty());
  ExprPtr element = add(i, j);
  CHECK(Kernel({loopOver(j, {zeroSeed(element)})}).vjp.seedsKeptWhenFresh.count("y_bar"));
  CHECK(Kernel({loopOver(j, {assign(v, Op::Add, index(yBar, i)), zeroSeed(element)})}).vjp.seedsKeptWhenFresh.empty());
  CHECK(Kernel({loopOver(j, {zeroSeed(element), barrier})}).vjp.seedsKeptWhenFresh.empty());
  CHECK(Kernel({loopOver(j, {zeroSeed()})}).vjp.seedsKeptWhenFresh.empty());
}
