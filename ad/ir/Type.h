// Types of the IR: the scalar types Adjoint differentiates through, pointers to them, and local
// fixed-size arrays. Anything else is rejected by the frontend with a diagnostic.
#pragma once

#include <string>

namespace adjoint::ir {

enum class Scalar { Void, Bool, Int, Float, Double, Opaque };

struct Type {
  Scalar scalar = Scalar::Double;
  bool pointer = false;       // T* or T[] parameter
  bool constPointee = false;  // const T*
  int arraySize = 0;          // local array T a[arraySize]; 0 when not an array
  std::string spelled;        // integer spelling (int, long, size_t, ...) or an opaque type

  static Type of(Scalar s) { return Type{s, false, false, 0, {}}; }
  static Type integer(std::string spelling = "int") { return Type{Scalar::Int, false, false, 0, std::move(spelling)}; }
  static Type opaque(std::string spelling) { return Type{Scalar::Opaque, false, false, 0, std::move(spelling)}; }

  bool isFloating() const { return scalar == Scalar::Float || scalar == Scalar::Double; }
  // A value with an adjoint: a floating scalar, a pointer to floating data, or a floating array.
  bool isDifferentiable() const { return isFloating(); }
  bool isIndexed() const { return pointer || arraySize > 0; }
  // The type of one element (for pointers and arrays) or the type itself.
  Type element() const { return Type{scalar, false, false, 0, spelled}; }
  Type pointerTo(bool isConst) const { return Type{scalar, true, isConst, 0, spelled}; }

  // The element's spelling in C++: "double", "float", "int", ...
  std::string scalarSpelling() const;
  // The spelling of a parameter of this type: "const double*", "double", ...
  std::string paramSpelling() const;
};

bool operator==(const Type& a, const Type& b);

}  // namespace adjoint::ir
