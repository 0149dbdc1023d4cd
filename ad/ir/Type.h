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
// A type the forward program defines and the generated code names: a struct of scalar fields
// (float, double, integers, bool), or an enumeration.
struct StructInfo {
  std::string name;                // as the generated code spells it: "Params", "ns::Mode"
  std::string keyword = "struct";  // "class", "enum", "enum class"
  std::string definition;          // its definition, inside its namespaces, copied into generated code
  std::string declaration;         // what a header declares: "struct Params;", "enum class Mode;"
  std::vector<std::pair<std::string, std::shared_ptr<const Type>>> fields;
  bool hasFloatingField() const;
  bool isEnum() const { return keyword.rfind("enum", 0) == 0; }
};

struct Type {
  Scalar scalar = Scalar::Double;
  bool pointer = false;                      // T* or T[] parameter
  bool constPointee = false;                 // const T*
  int arraySize = 0;                         // local array T a[arraySize]; 0 when not an array
  std::string spelled;                       // integer spelling (int, long, size_t, ...), struct or opaque type name
  std::shared_ptr<const StructInfo> record;  // the fields of a struct; an enumeration (Scalar::Int)
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
