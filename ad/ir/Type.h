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
  std::string header;              // or the standard header defining it: <utility> (std::pair), <tuple>
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
  // A standard container: "std::vector" or "std::array" (of containerSize elements). As a
  // parameter (pointer is set) it is passed by reference, const when constPointee; as a local
  // (a std::vector: a std::array local is an array) it is declared with its size (Stmt::args).
  std::string container;
  int containerSize = 0;
  // A scalar parameter passed by reference (T&, const T&): pointer is set, and it is indexed at 0
  // and printed by name, so that it is differentiated as an array of one element.
  bool reference = false;
  bool constant = false;  // a local declared const: a value generated code names and computes once
  // A pointer to arrays (a parameter T a[][3][4] or T (*a)[3]): the extents of what it points to
  // ({3, 4}). The IR indexes it as one array, row after row (a[i][j] is a[i * 3 + j]); a generated
  // function takes it as the caller passes it (transforms/RowParameters).
  std::vector<int> rowExtents;
  // A tape of element values (std::vector<T>): the values the forward sweep pushes (StmtKind::Push)
  // and the reverse sweep pops (ExprKind::Pop). Not itself a floating value.
  bool tape = false;
  // The 16-bit format a float array's elements are stored in ("__nv_bfloat16", "__half"; empty:
  // float itself): its elements are float values, read widened and written rounded to it.
  std::string storage;

  static Type of(Scalar s) {
    Type t;
    t.scalar = s;
    return t;
  }
  static Type integer(std::string spelling = "int", bool isUnsigned = false) {
    Type t = of(Scalar::Int);
    t.spelled = std::move(spelling);
    t.isUnsigned = isUnsigned;
    return t;
  }
  static Type opaque(std::string spelling) {
    Type t = of(Scalar::Opaque);
    t.spelled = std::move(spelling);
    return t;
  }
  static Type tapeOf(const Type& element) {
    Type t = element.element();
    t.tape = true;
    return t;
  }
  static Type structure(std::shared_ptr<const StructInfo> info) {
    Type t = of(Scalar::Struct);
    t.spelled = info->name;
    t.record = std::move(info);
    return t;
  }

  bool isFloating() const { return !tape && (scalar == Scalar::Float || scalar == Scalar::Double); }
  bool isStruct() const { return scalar == Scalar::Struct; }
  // A value with an adjoint: floating scalars, arrays of them, and structs with floating fields.
  bool isDifferentiable() const { return isFloating() || (isStruct() && record->hasFloatingField()); }
  bool isIndexed() const { return pointer || arraySize > 0 || isContainer(); }
  // A local array or std::vector: declared with its size, not a scalar initializer.
  bool isArrayLocal() const { return arraySize > 0 || (isContainer() && !pointer); }
  // The type of one element (for pointers and arrays) or the type itself.
  Type element() const {
    Type t = of(scalar);
    t.spelled = spelled;
    t.record = record;
    t.isUnsigned = isUnsigned;
    return t;
  }
  Type pointerTo(bool isConst) const {
    Type t = element();
    t.pointer = true;
    t.constPointee = isConst;
    return t;
  }
  // The type of an indexed value's adjoint or tangent parameter: its writable container, or a
  // pointer to its elements.
  Type writableIndexed() const {
    if (container.empty() && !reference) {
      Type t = element().pointerTo(false);
      t.rowExtents = rowExtents;
      t.storage = storage;  // the adjoint of a bf16 array is a bf16 array
      return t;
    }
    Type t = *this;
    t.constPointee = false;
    return t;
  }
  bool isContainer() const { return !container.empty(); }

  // The element's spelling in C++: "double", "float", "int", ...
  std::string scalarSpelling() const;
  // The container's spelling: "std::vector<double>", "std::array<float, 3>".
  std::string containerSpelling() const;
  // The spelling of a parameter of this type: "const double*", "double", "const std::vector<double>&", ...
  std::string paramSpelling() const;
  // `name` declared with this type: its spelling and name, but a pointer to rows as
  // `const double (*name)[3]`.
  std::string declarator(const std::string& name) const;
};

bool operator==(const Type& a, const Type& b);

// The CUDA functions that read an element stored in `storage` as a float (__bfloat162float) and
// round a float to it (__float2bfloat16).
std::string widenedFromStorage(const std::string& storage);
std::string roundedToStorage(const std::string& storage);

}  // namespace adjoint::ir
