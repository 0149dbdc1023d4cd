// Types of the IR: the scalar types Adjoint differentiates through, pointers to them, and local
// fixed-size arrays. Anything else is rejected by the frontend with a diagnostic.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace adjoint::ir {

enum class Scalar { Void, Bool, Int, Float, Double, Struct, Opaque };

struct Type;
// A struct of scalar fields (float, double, integers, bool).
struct StructInfo {
  std::string name;
  std::string keyword = "struct";  // or "class"
  std::string definition;          // the source text of its definition, copied into generated code
  std::vector<std::pair<std::string, std::shared_ptr<const Type>>> fields;
  bool hasFloatingField() const;
};

struct Type {
  Scalar scalar = Scalar::Double;
  bool pointer = false;                      // T* or T[] parameter
  bool constPointee = false;                 // const T*
  int arraySize = 0;                         // local array T a[arraySize]; 0 when not an array
  std::string spelled;                       // integer spelling (int, long, size_t, ...), struct or opaque type name
  std::shared_ptr<const StructInfo> record;  // the fields of a struct
  bool constRef = false;                     // a struct parameter passed as const S&
  bool isUnsigned = false;                   // an unsigned integer type
  bool shared = false;                       // a __shared__ array of a CUDA block

  static Type of(Scalar s) { return Type{s, false, false, 0, {}, nullptr, false, false, false}; }
  static Type integer(std::string spelling = "int", bool isUnsigned = false) {
    return Type{Scalar::Int, false, false, 0, std::move(spelling), nullptr, false, isUnsigned, false};
  }
  static Type opaque(std::string spelling) {
    return Type{Scalar::Opaque, false, false, 0, std::move(spelling), nullptr, false, false, false};
  }
  static Type structure(std::shared_ptr<const StructInfo> info) {
    return Type{Scalar::Struct, false, false, 0, info->name, info, false, false, false};
  }

  bool isFloating() const { return scalar == Scalar::Float || scalar == Scalar::Double; }
  bool isStruct() const { return scalar == Scalar::Struct; }
  // A value with an adjoint: floating scalars, arrays of them, and structs with floating fields.
  bool isDifferentiable() const { return isFloating() || (isStruct() && record->hasFloatingField()); }
  bool isIndexed() const { return pointer || arraySize > 0; }
  // The type of one element (for pointers and arrays) or the type itself.
  Type element() const { return Type{scalar, false, false, 0, spelled, record, false, isUnsigned, false}; }
  Type pointerTo(bool isConst) const {
    return Type{scalar, true, isConst, 0, spelled, record, false, isUnsigned, false};
  }

  // The element's spelling in C++: "double", "float", "int", ...
  std::string scalarSpelling() const;
  // The spelling of a parameter of this type: "const double*", "double", ...
  std::string paramSpelling() const;
};

bool operator==(const Type& a, const Type& b);

}  // namespace adjoint::ir
