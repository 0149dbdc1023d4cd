#include <doctest/doctest.h>

#include "ad/ir/Naming.h"

using namespace adjoint::ir;

TEST_CASE("generated names follow one convention") {
  CHECK(naming::adjointOf("x") == "x_bar");
  CHECK(naming::tangentOf("x") == "x_dot");
  CHECK(naming::accumulatorOf("p") == "p_bar_acc");
  CHECK(naming::derivativeOf("f", naming::Derivative::Gradient) == "f_grad");
  CHECK(naming::derivativeOf("K", naming::Derivative::Vjp, naming::Variant::WithValue) == "K_value_and_vjp");
  CHECK(naming::derivativeOf("K", naming::Derivative::Vjp, naming::Variant::FromOutput) == "K_vjp_from_output");
  CHECK(naming::withRespectTo("g_pullback", {"b", "a"}) == "g_pullback_wrt_a_b");
  CHECK(naming::launcherOf(naming::derivativeOf("K", naming::Derivative::Jvp)) == "K_jvp_launch");
  CHECK(naming::loopCountOf(12) == "k_L12");
}

TEST_CASE("a user's name that generated code would declare next to it is reserved") {
  for (const char* name : {"mean_bar", "x_dot", "x_tape", "s_bar_acc", "k_L3", "block_sums", "virtual_blocks"})
    CHECK(naming::isReserved(name));
  for (const char* name : {"bar", "k_L", "k_Lx", "dot_product", "blocks"}) CHECK_FALSE(naming::isReserved(name));
  CHECK(naming::isAdjoint("x_bar_new"));
  CHECK_FALSE(naming::isAdjoint("x_dot"));
}
