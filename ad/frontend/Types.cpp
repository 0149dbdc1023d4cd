// Types: Clang's types converted to the IR's (scalars, pointers, arrays, structs, enumerations,
// std::vector and std::array, scalars by reference; see Converter.h).
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>

#include "ad/frontend/Converter.h"

namespace adjoint::frontend::detail {

namespace {

const char* const kArraysOfArrays =
    "pass a pointer to the first element (const float* a) and index it a[i * N + j]; local arrays of "
    "arrays are supported";

}  // namespace

// "__nv_bfloat16" or "__half" for CUDA's 16-bit floating types (nv_bfloat16 and half name them
// too), else "".
std::string storageFormat(QualType t) {
  const auto* record = t->getAsRecordDecl();
  if (!record) return "";
  std::string name = record->getName().str();
  return name == "__nv_bfloat16" || name == "__half" ? name : "";
}

std::optional<ir::Type> Converter::convertType(QualType qt, SourceRange where, bool allowVoid) {
  QualType canon = qt.getCanonicalType();
  if (const auto* e = canon->getAs<EnumType>(); e && !sm_.isInSystemHeader(e->getDecl()->getLocation()))
    return convertEnum(e->getDecl(), where);
  if (auto t = passedThroughType(qt)) return t;
  if (isGroupType(qt)) {
    fail(where, "a cooperative group passed to or returned by a function is not supported",
         "make the group where it is used: cg::tiled_partition<32>(cg::this_thread_block())");
    return std::nullopt;
  }
  if (const auto* ref = canon->getAs<ReferenceType>()) {
    QualType pointee = ref->getPointeeType();
    if (isa<LValueReferenceType>(ref) && standardContainer(pointee))
      return convertContainer(pointee, pointee.isConstQualified(), where);
    if (isa<LValueReferenceType>(ref) && pointee->isBuiltinType() && pointee.isConstQualified())
      return convertType(pointee.getUnqualifiedType(), where);  // const double& x: read as x
    if (isa<LValueReferenceType>(ref) && pointee->isFloatingType()) {
      auto t = convertType(pointee, where);  // double& out: an array of one element
      if (t) *t = t->pointerTo(false), t->reference = true;
      return t;
    }
    if (isa<LValueReferenceType>(ref) && pointee.isConstQualified() && pointee->isStructureOrClassType()) {
      auto t = convertStruct(pointee, where);
      if (t) t->constRef = true;
      return t;
    }
    fail(where, "reference type '" + qt.getAsString() + "' is not supported",
         "pass by value or const reference; by reference Adjoint takes float and double outputs, structs (const) and "
         "std::vector or std::array");
    return std::nullopt;
  }
  if (standardContainer(canon)) return convertContainer(canon, true, where);  // by value: read only (see convertDecl)
  if (const auto* open = ctx_.getAsIncompleteArrayType(canon)) {  // extern __shared__ float tile[]: a pointer
    if (open->getElementType()->isArrayType()) return convertType(ctx_.getDecayedType(canon), where);
    auto t = convertType(open->getElementType(), where);
    if (t && !t->isIndexed()) return t->pointerTo(false);
    return std::nullopt;
  }
  if (std::string storage = storageFormat(canon); !storage.empty()) {
    fail(where, "a value of type '" + storage + "' is not supported",
         "keep values in float (float v = __bfloat162float(x[i])) and round them when storing into an array");
    return std::nullopt;
  }
  if (!pairFormat(canon).empty()) return convertPair(canon);
  if (isPack(canon)) {
    reportWholePack(where);  // (a pack local is declared, read and written through Packs.cpp)
    return std::nullopt;
  }
  if (canon->isStructureOrClassType()) return convertStruct(canon, where);
  bool pointer = false, constPointee = false;
  QualType elem = canon;
  if (const auto* arr = ctx_.getAsConstantArrayType(canon)) {
    // (a local T a[N][M] is one array of N * M elements, row after row: see Converter::pointerValue)
    elem = ctx_.getBaseElementType(canon);
    if (ctx_.getAsArrayType(arr->getElementType()) && !ctx_.getAsConstantArrayType(arr->getElementType())) {
      fail(where, "multi-dimensional array '" + qt.getAsString() + "' is not supported",
           "use a one-dimensional array and compute the index");
      return std::nullopt;
    }
  } else if (const auto* ptr = canon->getAs<PointerType>()) {
    pointer = true;
    elem = ptr->getPointeeType();
    constPointee = elem.isConstQualified();
    if (elem->isArrayType()) return convertRowPointer(canon, where);
  }
  if (std::string storage = storageFormat(elem); !storage.empty()) {
    if (!pointer) {
      fail(where, "an array of '" + storage + "' here is not supported", "pass 16-bit buffers as pointers");
      return std::nullopt;
    }
    ir::Type t = ir::Type::of(ir::Scalar::Float).pointerTo(constPointee);
    t.storage = storage;
    return t;
  }
  const auto* builtin = elem->getAs<BuiltinType>();
  if (!builtin) {
    fail(where, "type '" + qt.getAsString() + "' is not supported",
         "Adjoint differentiates float and double, pointers and arrays of them, and integer and bool values");
    return std::nullopt;
  }
  ir::Type t;
  if (builtin->getKind() == BuiltinType::Double)
    t = ir::Type::of(ir::Scalar::Double);
  else if (builtin->getKind() == BuiltinType::Float)
    t = ir::Type::of(ir::Scalar::Float);
  else if (builtin->getKind() == BuiltinType::LongDouble) {
    fail(where, "long double is not supported", "use double");
    return std::nullopt;
  } else if (builtin->getKind() == BuiltinType::Bool)
    t = ir::Type::of(ir::Scalar::Bool);
  else if (builtin->isInteger()) {
    QualType sugared = pointer ? qt->getPointeeType() : qt;
    if (ctx_.getAsConstantArrayType(qt)) sugared = ctx_.getBaseElementType(qt);
    // A class's own name for it (std::vector<double>::size_type) by what it names (std::size_t).
    while (const auto* member = sugared->getAs<TypedefType>()) {
      if (!member->getDecl()->getDeclContext()->isRecord()) break;
      sugared = member->getDecl()->getUnderlyingType();
    }
    std::string spelled = sugared.getUnqualifiedType().getAsString(ctx_.getPrintingPolicy());
    if (spelled == "__size_t" || spelled == "__ptrdiff_t") spelled = spelled.substr(2);  // Clang's sizeof sugar
    t = ir::Type::integer(spelled, builtin->isUnsignedInteger());
  } else if (builtin->getKind() == BuiltinType::Void && allowVoid && !pointer)
    t = ir::Type::of(ir::Scalar::Void);
  else {
    fail(where, "type '" + qt.getAsString() + "' is not supported", "use float, double, an integer type or bool");
    return std::nullopt;
  }
  if (pointer) t = t.pointerTo(constPointee);
  if (const auto* arr = ctx_.getAsConstantArrayType(canon))
    t.arraySize = static_cast<int>(ctx_.getConstantArrayElementCount(arr));
  return t;
}

// T (*)[3][4], a parameter T a[][3][4]: a pointer to T with the extents of a row, in host code.
std::optional<ir::Type> Converter::convertRowPointer(QualType pointer, SourceRange where) {
  QualType row = pointer->getPointeeType();
  if (currentIsDevice_) {
    fail(where, "a pointer to arrays ('" + pointer.getAsString() + "') is not supported in device code",
         kArraysOfArrays);
    return std::nullopt;
  }
  std::vector<int> extents;
  for (QualType t = row; const auto* arr = ctx_.getAsConstantArrayType(t); t = arr->getElementType())
    extents.push_back(static_cast<int>(arr->getSize().getZExtValue()));
  QualType element = ctx_.getBaseElementType(row);
  if (extents.empty() || ctx_.getAsArrayType(element)) {
    fail(where, "a pointer to arrays ('" + pointer.getAsString() + "') is not supported",
         "give every extent after the first a constant size");
    return std::nullopt;
  }
  auto t = convertType(element, where);
  if (!t) return std::nullopt;
  if (!t->isFloating() && t->scalar != ir::Scalar::Int) {
    std::string name = element.getUnqualifiedType().getAsString(ctx_.getPrintingPolicy());
    fail(where, "a pointer to arrays of '" + name + "' is not supported",
         "pass a pointer to the first element (const " + name + "* a) and index it a[i * N + j]");
    return std::nullopt;
  }
  ir::Type rows = t->pointerTo(element.isConstQualified());
  rows.rowExtents = extents;
  return rows;
}

namespace {

// std::vector<T> or std::array<T, N>: the specialization, else null.
const ClassTemplateSpecializationDecl* containerSpecialization(QualType qt) {
  const auto* spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(qt->getAsCXXRecordDecl());
  if (!spec) return nullptr;
  std::string name = spec->getQualifiedNameAsString();
  return name == "std::vector" || name == "std::array" ? spec : nullptr;
}

// `text` (a declaration) inside the namespaces that enclose `d`, as the generated code repeats it;
// nothing when `d` is declared inside a class or function.
std::optional<std::string> inNamespaces(const Decl* d, std::string text) {
  for (const DeclContext* dc = d->getDeclContext(); !dc->isTranslationUnit(); dc = dc->getParent()) {
    const auto* ns = dyn_cast<NamespaceDecl>(dc);
    if (!ns) {
      if (isa<LinkageSpecDecl>(dc)) continue;
      return std::nullopt;
    }
    text = "namespace " + ns->getNameAsString() + (ns->isAnonymousNamespace() ? "" : " ") + "{\n" + text + "\n}";
  }
  return text;
}

}  // namespace

// The header of f's derivatives declares the enumerations of f's parameters opaquely, which an
// unscoped enumeration allows only with a fixed underlying type (`enum Color : int`).
void Converter::requireDeclarableEnums(const FunctionDecl* fd) {
  for (const ParmVarDecl* p : fd->parameters()) {
    const auto* e = p->getType().getCanonicalType()->getAs<EnumType>();
    if (!e || e->getDecl()->isFixed() || sm_.isInSystemHeader(e->getDecl()->getLocation())) continue;
    std::string name = e->getDecl()->getNameAsString();
    fail(p->getSourceRange(),
         "the generated header cannot declare enumeration '" + name + "': it has no fixed underlying type",
         "give it one (enum " + name + " : int { ... }), or make it a scoped enum (enum class " + name + ")");
  }
}

bool Converter::standardContainer(QualType qt) const { return containerSpecialization(qt.getCanonicalType()); }

// std::vector<T> and std::array<T, N> of scalars: indexed like a pointer to T, spelled as the
// container (the adjoint of `const std::vector<double>& x` is `std::vector<double>& x_bar`).
std::optional<ir::Type> Converter::convertContainer(QualType qt, bool isConst, SourceRange where) {
  const ClassTemplateSpecializationDecl* spec = containerSpecialization(qt.getCanonicalType());
  const TemplateArgumentList& args = spec->getTemplateArgs();
  QualType element = args[0].getAsType();
  if (!element->isBuiltinType()) {
    fail(where, "'" + qt.getUnqualifiedType().getAsString(ctx_.getPrintingPolicy()) + "' is not supported",
         "Adjoint differentiates std::vector and std::array of float, double, integers and bool");
    return std::nullopt;
  }
  auto t = convertType(element, where);
  if (!t) return std::nullopt;
  ir::Type c = t->pointerTo(isConst);
  c.container = spec->getQualifiedNameAsString();
  if (c.container == "std::array") c.containerSize = static_cast<int>(args[1].getAsIntegral().getExtValue());
  return c;
}

// An enumeration of the forward program: an integer type whose definition the generated code
// repeats, and whose header declares it opaquely (which needs a fixed underlying type: a scoped
// enum's is int unless written).
std::optional<ir::Type> Converter::convertEnum(const EnumDecl* e, SourceRange where) {
  std::string name = e->getQualifiedNameAsString();
  const EnumDecl* def = e->getDefinition();
  auto it = enums_.find(name);
  if (it != enums_.end() && !it->second) return std::nullopt;  // reported at its first use
  if (it == enums_.end()) {
    auto info = std::make_shared<ir::StructInfo>();
    info->name = name;
    info->keyword = e->isScoped() ? (e->isScopedUsingClassTag() ? "enum class" : "enum struct") : "enum";
    CharSourceRange range = CharSourceRange::getTokenRange(def ? def->getSourceRange() : SourceRange());
    std::optional<std::string> definition =
        def ? inNamespaces(def, Lexer::getSourceText(range, sm_, ctx_.getLangOpts()).str() + ";") : std::nullopt;
    if (!definition) {
      fail(where, "enumeration '" + name + "' is declared inside a class or function",
           "declare the enumeration at namespace scope");
      enums_[name] = nullptr;
      return std::nullopt;
    }
    info->definition = *definition;
    if (e->isFixed())
      info->declaration = *inNamespaces(
          def,
          info->keyword + " " + e->getNameAsString() +
              (e->getIntegerTypeSourceInfo() ? " : " + e->getIntegerType().getAsString(ctx_.getPrintingPolicy()) : "") +
              ";");
    it = enums_.emplace(name, info).first;
    module_.enums.push_back(info);
  }
  ir::Type t = ir::Type::integer(name, e->getIntegerType()->isUnsignedIntegerType());
  t.record = it->second;
  return t;
}

namespace {

// A base class without fields (std::pair's __pair_base): nothing to differentiate.
bool hasOnlyEmptyBases(const CXXRecordDecl* record) {
  return std::all_of(record->bases_begin(), record->bases_end(), [](const CXXBaseSpecifier& base) {
    const CXXRecordDecl* b = base.getType()->getAsCXXRecordDecl();
    return b && b->isEmpty() && !base.isVirtual();
  });
}

}  // namespace

bool isStdPair(const RecordDecl* record) {
  const auto* spec = dyn_cast<ClassTemplateSpecializationDecl>(record);
  return spec && spec->getQualifiedNameAsString() == "std::pair";
}

bool isStdTuple(const RecordDecl* record) {
  const auto* spec = dyn_cast<ClassTemplateSpecializationDecl>(record);
  return spec && spec->getQualifiedNameAsString() == "std::tuple";
}

// std::tuple<T0, T1, ...> of scalars: a struct of the fields "0", "1", ... (std::get<0>(t), ...),
// which the library keeps in its bases.
std::optional<ir::Type> Converter::convertTuple(const ClassTemplateSpecializationDecl* tuple, const std::string& name,
                                                SourceRange where) {
  if (auto it = structs_.find(name); it != structs_.end()) return ir::Type::structure(it->second);
  auto info = std::make_shared<ir::StructInfo>();
  info->name = name;
  info->header = "<tuple>";
  for (const TemplateArgument& element : tuple->getTemplateArgs()[0].pack_elements()) {
    const auto* builtin = element.getAsType().getCanonicalType()->getAs<BuiltinType>();
    auto t = builtin ? convertType(element.getAsType(), where) : std::nullopt;
    if (!builtin) fail(where, "type '" + name + "' is not supported", "Adjoint differentiates tuples of scalars");
    if (!t) return std::nullopt;
    info->fields.emplace_back(std::to_string(info->fields.size()), std::make_shared<ir::Type>(*t));
  }
  structs_[name] = info;
  return ir::Type::structure(info);
}

// A struct of scalar fields, without virtual functions or bases with fields; std::pair and
// std::tuple of scalars.
std::optional<ir::Type> Converter::convertStruct(QualType qt, SourceRange where) {
  const auto* record = qt->getAsRecordDecl();
  const auto* cxx = dyn_cast_or_null<CXXRecordDecl>(record);
  std::string name = qt.getUnqualifiedType().getAsString(ctx_.getPrintingPolicy());
  if (record && isStdTuple(record)) return convertTuple(cast<ClassTemplateSpecializationDecl>(record), name, where);
  if (!record || !record->getDefinition() || (cxx && (!hasOnlyEmptyBases(cxx) || cxx->isPolymorphic()))) {
    fail(where, "type '" + name + "' is not supported",
         "Adjoint differentiates structs of float, double, integer and bool fields without bases or virtual functions");
    return std::nullopt;
  }
  auto it = structs_.find(name);
  if (it != structs_.end()) return ir::Type::structure(it->second);
  auto info = std::make_shared<ir::StructInfo>();
  info->name = name;
  const RecordDecl* def = record->getDefinition();
  info->keyword = def->isClass() ? "class" : "struct";
  if (isStdPair(def)) info->header = "<utility>";
  CharSourceRange range = CharSourceRange::getTokenRange(def->getSourceRange());
  std::optional<std::string> definition =
      inNamespaces(def, Lexer::getSourceText(range, sm_, ctx_.getLangOpts()).str() + ";");
  if (!definition) {
    fail(where, "type '" + name + "' is declared inside a class or function", "declare it at namespace scope");
    return std::nullopt;
  }
  if (info->header.empty()) {
    info->definition = *definition;
    info->declaration = *inNamespaces(def, info->keyword + " " + def->getNameAsString() + ";");
  }
  for (const FieldDecl* field : record->getDefinition()->fields()) {
    const auto* builtin = field->getType().getCanonicalType()->getAs<BuiltinType>();
    if (!builtin || builtin->getKind() == BuiltinType::LongDouble || builtin->getKind() == BuiltinType::Void) {
      // (a library's type, an iterator say, is reported where the user's code names it)
      bool library = sm_.isInSystemHeader(field->getLocation());
      fail(library ? where : field->getSourceRange(),
           library ? "type '" + name + "' is not supported"
                   : "field '" + field->getNameAsString() + "' of '" + name + "' is not a scalar",
           library ? "Adjoint differentiates structs of float, double, integer and bool fields, std::pair and "
                     "std::tuple; index containers (x[i]) rather than iterate over them"
                   : "Adjoint differentiates structs of float, double, integer and bool fields");
      return std::nullopt;
    }
    auto t = convertType(field->getType(), field->getSourceRange());
    if (!t) return std::nullopt;
    info->fields.emplace_back(field->getNameAsString(), std::make_shared<ir::Type>(*t));
  }
  structs_[name] = info;
  return ir::Type::structure(info);
}

}  // namespace adjoint::frontend::detail
