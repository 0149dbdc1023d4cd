#include "ad/ir/Type.h"

namespace adjoint::ir {

std::string Type::scalarSpelling() const {
  switch (scalar) {
    case Scalar::Void:
      return "void";
    case Scalar::Bool:
      return "bool";
    case Scalar::Int:
      return spelled.empty() ? "int" : spelled;
    case Scalar::Float:
      return storage.empty() ? "float" : storage;
    case Scalar::Double:
      return "double";
    case Scalar::Struct:
    case Scalar::Opaque:
      return spelled;
  }
  return "?";
}

std::string Type::containerSpelling() const {
  return container + "<" + scalarSpelling() + (containerSize ? ", " + std::to_string(containerSize) : "") + ">";
}

std::string Type::paramSpelling() const {
  if (tape) return "std::vector<" + scalarSpelling() + ">";
  if (constant) {
    Type plain = *this;
    plain.constant = false;
    return "const " + plain.paramSpelling();
  }
  if (isContainer() && !pointer) return containerSpelling();
  if (isContainer()) return (constPointee ? "const " : "") + containerSpelling() + "&";
  if (reference) return (constPointee ? "const " : "") + scalarSpelling() + "&";
  std::string s = scalarSpelling();
  if (pointer) s = (constPointee ? "const " : "") + s + "*";
  if (constRef) s = "const " + s + "&";
  return s;
}

std::string Type::declarator(const std::string& name) const {
  if (rowExtents.empty()) return paramSpelling() + " " + name;
  std::string rows;
  for (int extent : rowExtents) rows += "[" + std::to_string(extent) + "]";
  return (constPointee ? "const " : "") + scalarSpelling() + " (*" + name + ")" + rows;
}

bool StructInfo::hasFloatingField() const {
  for (const auto& [name, type] : fields)
    if (type->isFloating()) return true;
  return false;
}

std::string widenedFromStorage(const std::string& storage) {
  return storage == "__half" ? "__half2float" : "__bfloat162float";
}

std::string roundedToStorage(const std::string& storage) {
  return storage == "__half" ? "__float2half" : "__float2bfloat16";
}

bool operator==(const Type& a, const Type& b) {
  return a.scalar == b.scalar && a.pointer == b.pointer && a.constPointee == b.constPointee &&
         a.arraySize == b.arraySize && a.spelled == b.spelled && a.constRef == b.constRef && a.shared == b.shared &&
         a.container == b.container && a.containerSize == b.containerSize && a.reference == b.reference &&
         a.constant == b.constant && a.tape == b.tape && a.storage == b.storage;
}

}  // namespace adjoint::ir
