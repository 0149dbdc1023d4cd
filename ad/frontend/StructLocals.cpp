// Local variables of struct type, as scalars: `Vec3 d = {a.x - b.x, ...};` is one local per field
// (d_x, d_y, d_z), and `d.x` reads or assigns d_x, so that every field is differentiated as the
// scalar it is (see Converter.h).
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>

#include "ad/frontend/Converter.h"

namespace adjoint::frontend::detail {

namespace {

// The struct an initializer copies (`Vec3 e = d;`, `Vec3 e(p);`), or null.
const Expr* copiedStruct(const Expr* init) {
  const auto* c = dyn_cast_or_null<CXXConstructExpr>(init ? init->IgnoreImplicit() : nullptr);
  if (!c || !c->getConstructor()->isCopyOrMoveConstructor() || c->getNumArgs() != 1) return nullptr;
  return c->getArg(0)->IgnoreImplicit();
}

}  // namespace

// Vec3 d = {e1, e2, e3};  Vec3 d{};  Vec3 d = p;  Vec3 d;  -> a local per field, initialized
// from the list, the copied struct's field, or else zero.
void Converter::declareStructLocal(const VarDecl* vd, const ir::Type& type, ir::StmtList& out) {
  const Expr* init = vd->getInit() ? vd->getInit()->IgnoreImplicit() : nullptr;
  const auto* list = dyn_cast_or_null<InitListExpr>(init);
  const Expr* source = copiedStruct(init);
  if (init && !list && !source && !isa<CXXConstructExpr>(init)) {
    fail(init->getSourceRange(), "this initializer of a local struct is not supported",
         "initialize it with a braced list of its fields' values, or a copy of another struct");
    return;
  }
  std::map<std::string, std::string>& fields = structLocals_[vd];
  size_t k = 0;
  for (const auto& [field, fieldType] : type.record->fields) {
    std::string name = freshName(vd->getNameAsString() + "_" + field);
    fields[field] = name;
    ir::ExprPtr value;
    if (list && k < list->getNumInits() && !isa<ImplicitValueInitExpr>(list->getInit(k)))
      value = convertExpr(list->getInit(k));
    else if (source)
      value = fieldOf(source, field);
    else
      value = ir::number(0, *fieldType);  // (left indeterminate by C++: zero is one of its values)
    out.push_back(ir::at(ir::decl(name, *fieldType, value), loc(vd->getBeginLoc())));
    ++k;
  }
}

// s.f of a struct expression: a scalarized local's field local, or a parameter's field.
ir::ExprPtr Converter::fieldOf(const Expr* object, const std::string& field) {
  object = object->IgnoreParenImpCasts();
  if (const auto* ref = dyn_cast<DeclRefExpr>(object))
    if (auto local = structLocals_.find(dyn_cast<VarDecl>(ref->getDecl())); local != structLocals_.end()) {
      const std::string& name = local->second.at(field);
      for (const auto& [f, t] : convertType(ref->getType(), ref->getSourceRange())->record->fields)
        if (f == field) return ir::var(name, *t);
    }
  return ir::member(convertExpr(object), field);
}

}  // namespace adjoint::frontend::detail
