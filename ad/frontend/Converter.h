// The converter from Clang's AST to the IR (see AstToIr.h), shared by the files that implement it:
// AstToIr.cpp (functions, types, statements, expressions) and Pointers.cpp (pointer locals and
// pointer arithmetic as offsets into the arrays they point into).
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>

#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ad/frontend/Diagnostics.h"
#include "ad/ir/Function.h"
#include "ad/ir/Names.h"

namespace adjoint::frontend::detail {

using namespace clang;
namespace ir = adjoint::ir;

// The IR's operator for a C++ binary or assignment operator (x += e: Add; x = e: Assign), or
// nothing for those the IR does not have (the comma operator, pointer-to-member).
std::optional<ir::Op> irOperator(BinaryOperatorKind kind);

// The field of `record` named `field` (one Adjoint's types say it has).
const FieldDecl* fieldNamed(const RecordDecl* record, const std::string& field);
// Whether `record` is a std::pair (a struct of the fields first and second to Adjoint), or a
// std::tuple (of the fields "0", "1", ...).
bool isStdPair(const RecordDecl* record);
bool isStdTuple(const RecordDecl* record);

// std::size_t: sizes, and counters over containers.
ir::Type sizeType();
// The length of a container or array: an array's (std::array locals are arrays), or x.size().
ir::ExprPtr lengthOf(const ir::ExprPtr& values);
// for (std::size_t k = 0; k < length; ++k) body
ir::StmtPtr countedLoop(const std::string& k, const ir::ExprPtr& length, ir::StmtList body);

// The type of a local of the container type `container` (as a parameter's, indexed): a
// std::array is an array of its length, a std::vector a local container.
ir::Type localContainer(const ir::Type& container);

// A whole struct value without its copies, temporaries and functional casts: `d` of `Vec3 e = d;`,
// `x4[i]` of `float4 v = x4[i];`, the call of `make_float4(...)`, the list of `Vec2{a, b}`.
const Expr* structValue(const Expr* e);

// Calls `visit` on `s` and on every statement and expression inside it.
template <class F>
void visitAll(const Stmt* s, F&& visit) {
  if (!s) return;
  visit(s);
  for (const Stmt* child : s->children()) visitAll(child, visit);
}

// "__nv_bfloat16" or "__half" for CUDA's 16-bit floating types, else "" (Types.cpp).
std::string storageFormat(QualType t);
// The same for CUDA's pairs of them (__nv_bfloat162, __half2), and whether a function widens one
// field of a pair to float (__low2float, __high2float) (Pairs.cpp).
std::string pairFormat(QualType t);
bool widensHalf(llvm::StringRef name);
// Whether `t` is a pack: a struct holding one array of values and nothing else (Packs.cpp).
bool isPack(QualType t);

// The lambda whose call operator `fd` is, or null (Lambdas.cpp).
const CXXRecordDecl* closureOf(const FunctionDecl* fd);

// Why a call of the program's function `fd` is inlined for the arrays it writes (its array
// parameters, or for a lambda the arrays it captures), or "" where it writes none (Inlining.cpp).
std::string arraysWrittenReason(const FunctionDecl* fd);

// The arguments of a constructor call, without the defaulted ones (dim3(n) for dim3(n, 1, 1)).
std::vector<const Expr*> explicitArgs(const CXXConstructExpr* c);

class Converter {
 public:
  explicit Converter(ASTContext& ctx) : ctx_(ctx), sm_(ctx.getSourceManager()), report_(ctx.getDiagnostics()) {}

  std::optional<ir::Module> run(const std::vector<std::string>& roots);

 private:
  friend class StatementConverter;  // Statements.cpp: a case per kind of statement
  ASTContext& ctx_;
  SourceManager& sm_;
  Reporter report_;
  std::deque<const FunctionDecl*> pending_;
  std::set<const FunctionDecl*> queued_;
  std::map<std::string, ir::Rule> rules_;                   // by the name of the function they differentiate
  std::map<std::string, const FunctionDecl*> ruleSources_;  // the first rule of each function, for diagnostics
  // The functions of Adjoint's own headers that a function's rules call (adjoint_digamma for
  // lgamma): the generated code gets a copy of each where it uses the rule.
  std::map<std::string, std::vector<const FunctionDecl*>> ruleHelpers_;
  std::vector<const FunctionDecl*>* readingRuleHelpers_ = nullptr;  // while a rule's expression is converted
  ir::Module module_;

  std::vector<const FunctionDecl*> ruleDecls_;
  std::vector<const VarDecl*> aliasDecls_;
  std::vector<const VarDecl*> linearDecls_;
  std::map<std::string, std::string> aliases_;  // another name of a function with rules -> that function
  // Reads every rule and alias (RuleReading.cpp); false after a diagnostic.
  bool readRules();
  void collectRules(const DeclContext* dc, bool inRules);
  void addAliases(const VarDecl* vd);
  void addLinearRule(const VarDecl* vd);
  // Registers the rule `fd` (when `convertBody`, converts its expression: after all rules are
  // known, since rules call functions that have rules).
  void addRule(const FunctionDecl* fd, bool convertBody);
  std::string ruleResult(const ir::Rule& rule, const FunctionDecl* fd, const std::string& key);
  ir::ExprPtr callOf(const FunctionDecl* fd, std::vector<ir::ExprPtr> args, const ir::Type& type, const Expr* call);
  ir::ExprPtr ruleCall(const FunctionDecl* fd, const std::string& spelled, const std::string& key,
                       std::vector<ir::ExprPtr> args, const ir::Type& type);
  void declareExternal(const FunctionDecl* fd, const std::string& name);
  static bool markedNondifferentiable(const Decl* d);

  std::vector<const FunctionTemplateDecl*> templates_;  // of the main file
  std::vector<const CXXMethodDecl*> methods_;           // of the main file's classes
  std::string spelling(const FunctionDecl* fd) const;
  std::string runtimeHeader(const Decl* d) const;
  std::string irName(const FunctionDecl* fd) const;
  void collectDefinitions(const DeclContext* dc, std::vector<const FunctionDecl*>& defs);
  std::vector<const FunctionDecl*> definitionsInMainFile();
  const clang::FunctionDecl* methodNamed(const std::string& name);
  bool explainNotFound(const std::string& name);
  void enqueue(const FunctionDecl* fd);
  ir::Function convertFunction(const FunctionDecl* fd);
  ir::SourceLoc loc(SourceLocation l) const;
  ir::Type fail(SourceRange r, const std::string& msg, const std::string& hint);
  std::optional<ir::Type> convertType(QualType qt, SourceRange where, bool allowVoid = false);
  std::optional<ir::Type> convertRowPointer(QualType pointer, SourceRange where);
  std::optional<ir::Type> convertStruct(QualType qt, SourceRange where);
  std::optional<ir::Type> convertTuple(const ClassTemplateSpecializationDecl* tuple, const std::string& name,
                                       SourceRange where);
  std::map<std::string, std::shared_ptr<const ir::StructInfo>> structs_;
  std::optional<ir::Type> convertEnum(const EnumDecl* e, SourceRange where);
  bool standardContainer(QualType qt) const;
  std::optional<ir::Type> convertContainer(QualType qt, bool isConst, SourceRange where);
  void requireDeclarableEnums(const FunctionDecl* fd);
  std::map<std::string, std::shared_ptr<const ir::StructInfo>> enums_;
  static constexpr int kMaxExprDepth = 20000;
  int exprDepth_ = 0;
  bool depthReported_ = false;

  ir::StmtList convertBody(const Stmt* s);
  void convertStmt(const Stmt* s, ir::StmtList& out);
  ir::StmtPtr convertAssignment(const Expr* e);
  void convertSwitch(const SwitchStmt* sw, ir::StmtList& out);
  // Containers (Containers.cpp).
  ir::ExprPtr convertSubscript(const CXXOperatorCallExpr* op);
  ir::ExprPtr convertContainerCall(const CXXMemberCallExpr* call);
  void convertRangeFor(const CXXForRangeStmt* loop, ir::StmtList& out);
  void declareContainer(const VarDecl* vd, ir::StmtList& out);
  bool initializeArray(const Expr* init, ir::Stmt& array);
  bool vectorAtTopLevel(const VarDecl* vd, const ir::Type& local);
  bool writesReadOnlyContainer(const ir::ExprPtr& target, const Expr* write);
  bool isResizing(const CallExpr* call) const;
  void lowerResizing(const CXXMemberCallExpr* call, ir::StmtList& out);
  int nesting_ = 0;  // blocks around the statement being converted (1: the function's own)
  // Algorithms of <numeric> and <algorithm> (Algorithms.cpp).
  struct IndexedRange {
    ir::ExprPtr values;  // a container, array or pointer
    ir::ExprPtr length;
  };
  bool isAlgorithm(const Expr* e) const;
  bool isRangeWrite(const CallExpr* call) const;
  void lowerRangeWrite(const CallExpr* call, ir::StmtList& out);
  ir::ExprPtr rangeStart(const Expr* first);
  ir::ExprPtr applyOperation(const Expr* op, const std::vector<ir::ExprPtr>& args, ir::StmtList& out);
  ir::ExprPtr algorithmValue(const Expr* e);
  // Where the statements an expression needs computed first go (the loop of a std::accumulate):
  // the list of the statement being converted, of a loop's condition (run on every iteration) or
  // of an operand of ?:, && or || (run where the operand is); null outside any statement (a
  // derivative rule's partial), where needsNoStatements reports an expression that needs some.
  ir::StmtList* prelude_ = nullptr;
  struct PreludeTo {
    ir::StmtList*& slot;
    ir::StmtList* saved;
    PreludeTo(ir::StmtList*& s, ir::StmtList* to) : slot(s), saved(s) { slot = to; }
    ~PreludeTo() { slot = saved; }
  };
  ir::ExprPtr condition(const VarDecl* variable, const Expr* cond, ir::StmtList& before);
  ir::ExprPtr assignmentValue(const Expr* e);
  std::optional<IndexedRange> indexedRange(const Expr* first, const Expr* last);
  ir::ExprPtr lowerAlgorithm(const Expr* e, const std::string& name, ir::StmtList& out);
  // The loop variables of range-based for loops declared as references: the element they name.
  std::map<const VarDecl*, ir::ExprPtr> elementAliases_;
  ir::ExprPtr caseCondition(const ir::ExprPtr& value, const std::vector<const CaseStmt*>& cases);
  ir::StmtPtr convertAtomicAdd(const CallExpr* call);
  ir::ExprPtr convertAddress(const Expr* e);
  void convertDecl(const VarDecl* vd, ir::StmtList& out);
  void flattenInitializer(const InitListExpr* list, const ir::Type& element, std::vector<ir::ExprPtr>& out);
  void declareDynamicShared(const VarDecl* vd, ir::StmtList& out);
  bool currentIsKernel_ = false;
  bool currentIsDevice_ = false;  // a kernel or a __device__ function
  bool dynamicShared_ = false;    // the kernel being converted declared its extern __shared__ array
  ir::ExprPtr convertExpr(const Expr* e);
  ir::ExprPtr convertCall(const CallExpr* call);
  ir::ExprPtr libraryConstant(const CallExpr* call);
  ir::ExprPtr convertCast(const CastExpr* c);
  ir::ExprPtr convertUnary(const UnaryOperator* u);
  ir::ExprPtr convertBinary(const BinaryOperator* b);
  // ?:, && and || (Guards.cpp).
  ir::ExprPtr convertConditional(const ConditionalOperator* c);
  ir::ExprPtr convertLogical(const BinaryOperator* l, ir::Op op);
  ir::ExprPtr convertDeclRef(const DeclRefExpr* ref);
  ir::ExprPtr convertIntegerLiteral(const IntegerLiteral* i);

  // Pointers (Pointers.cpp). A pointer local (`const double* row = A + i * n;`) and a pointer
  // parameter the function advances (`inp += idx * C;`) become an integer local holding the
  // offset into the array they point into (`long row_offset = i * n;`): `row[j]` is
  // `A[row_offset + j]`, so adjoints and tangents are indexed exactly as the values are.
  // A pointer to a struct of n fields of the base's element type, cast from a pointer into the
  // base (`reinterpret_cast<const float4*>(x)`), views it n elements at a time: `width` n, the
  // offset still counted in elements of the base, and an element of the view used by its fields
  // (`x4[i].y` is `x[4 * i + 1]`).
  struct PointerAlias {
    ir::ExprPtr base;    // the parameter or local array pointed into
    std::string offset;  // the name of the offset local
    int width = 1;       // elements of base per element pointed to
  };
  struct PointerValue {
    ir::ExprPtr base;
    ir::ExprPtr offset;  // null: the start of `base`
    int width = 1;
  };
  std::map<const VarDecl*, PointerAlias> pointers_;
  // Constant arrays at namespace scope the function reads, as local arrays declared first.
  std::map<const VarDecl*, ir::ExprPtr> tables_;
  ir::StmtList tableDecls_;
  ir::ExprPtr constantTable(const VarDecl* vd);
  int rowWidth(QualType t) const;

  // Code that touches no value a derivative needs, as the program wrote it (PassThrough.cpp).
  bool passThrough(const Stmt* s, ir::StmtList& out);
  bool isLibraryObject(QualType t) const;
  bool isPlainProgramVariable(const VarDecl* vd) const;
  bool touchesLibraryObject(const Stmt* s) const;
  bool isConstantLocal(const VarDecl* vd) const;
  const NamedDecl* floatingRead(const Stmt* s) const;
  bool refuseFloatingInput(const Stmt* s, const std::string& what);
  bool carriesFloating(QualType t) const;
  bool writesProgramVariable(const Expr* e) const;
  std::optional<ir::ExprPtr> verbatim(SourceRange range, const Stmt* within, const ir::Type& type);
  ir::NameSet namesInFunction_;
  void beginFunction(const FunctionDecl* fd, ir::StmtList& body);
  std::string freshName(const std::string& base);
  std::optional<PointerValue> pointerValue(const Expr* e);
  // The element `index` places after where `pointer` points; null after reporting an error.
  ir::ExprPtr elementAt(const Expr* pointer, ir::ExprPtr index);
  // Field `field` of the struct `index` places after where `pointer` points.
  ir::ExprPtr elementField(const Expr* pointer, ir::ExprPtr index, const std::string& field);
  std::optional<PointerValue> castPointer(const ExplicitCastExpr* cast);
  std::optional<PointerValue> steppedPointer(const UnaryOperator* u);
  void reportUnfollowed(const Expr* pointer);
  bool isPointerAlias(const Expr* e) const;
  void declarePointer(const VarDecl* vd, ir::StmtList& out);
  ir::StmtPtr assignPointer(const Expr* whole, const Expr* target, ir::Op op, const Expr* value);
  ir::ExprPtr comparePointers(const BinaryOperator* b);
  const Expr* assertedCondition(const Expr* e) const;
  ir::ExprPtr nullTest(const Expr* whole, const Expr* pointer, bool given);
  ir::ExprPtr placeholder() { return ir::number(0, ir::Type::of(ir::Scalar::Double)); }
  ir::ExprPtr unsupportedExpr(const Expr* e, const std::string& what, const std::string& hint);
  ir::ExprPtr needsNoStatements(const Expr* e, const std::string& what);

  ir::ExprPtr convertVariable(const VarDecl* vd, SourceRange where);
  ir::ExprPtr foldedConstant(const VarDecl* vd, SourceRange where);

  // Local structs, a local per field (StructLocals.cpp).
  void declareStructLocal(const VarDecl* vd, const ir::Type& type, ir::StmtList& out);
  ir::ExprPtr fieldOf(const Expr* object, const std::string& field);
  ir::ExprPtr constructedField(const CXXConstructExpr* c, const std::string& field);
  void declareBindings(const DecompositionDecl* dd, ir::StmtList& out);
  ir::ExprPtr getElement(const CallExpr* call);
  ir::ExprPtr madeTupleField(const Expr* tuple, const std::string& field, const ir::Type& type);
  std::map<const BindingDecl*, ir::ExprPtr> bindings_;  // auto [r, t] = ...: what each name reads
  bool isStructAssignment(const Expr* e) const;
  // 16-bit floating storage (Storage.cpp): a widening or rounding conversion, the float value
  // of an element or of what is stored into one, and y[i] = v into an element.
  bool isStorageConversion(const Expr* e) const;
  ir::ExprPtr convertStorageConversion(const Expr* e);
  ir::ExprPtr storedValue(const Expr* e);
  bool isStorageAssignment(const Expr* e) const;
  ir::StmtPtr convertStorageAssignment(const Expr* e);
  void assignStruct(const Expr* whole, const ir::Type& type, const std::vector<ir::ExprPtr>& targets, const Expr* value,
                    ir::StmtList& out);
  void convertStructAssignment(const Expr* e, ir::StmtList& out);
  // Pairs of 16-bit values, __nv_bfloat162 and __half2 (Pairs.cpp).
  ir::Type convertPair(QualType t);
  void findRoundedPairs(const FunctionDecl* fd);
  ir::ExprPtr pairField(const Expr* whole, const Expr* pair, const std::string& field);
  ir::ExprPtr pairHalf(const Expr* e);
  ir::ExprPtr pairCallField(const CallExpr* call, const std::string& field);
  std::set<const VarDecl*> roundedPairs_;  // pair locals made from floats: not read as floats
  // Packs, local arrays of their elements (Packs.cpp).
  std::optional<ir::Type> convertPack(QualType t, SourceRange where);
  bool isPackElement(const Expr* e) const;
  ir::ExprPtr convertPackElement(const Expr* e);
  void declarePack(const VarDecl* vd, ir::StmtList& out);
  void copyIntoPack(const VarDecl* vd, const Expr* value, ir::SourceLoc at, ir::StmtList& out);
  bool isPackAssignment(const Expr* e) const;
  void convertPackAssignment(const Expr* e, ir::StmtList& out);
  void reportWholePack(SourceRange where);
  const VarDecl* localPack(const Expr* e) const;
  ir::ExprPtr packElement(const VarDecl* vd, ir::ExprPtr slot);
  void findWrittenPacks(const FunctionDecl* fd);
  bool readOnlyBuffer(const ir::Expr& base) const;
  std::set<const VarDecl*> writtenPacks_;  // pack locals the function writes: arrays, not views
  bool isPackStore(const CallExpr* call) const;
  void lowerPackStore(const CallExpr* call, ir::StmtList& out);
  std::map<const VarDecl*, std::map<std::string, std::string>> structLocals_;  // field -> its local

  // Calls inlined where the IR cannot pass what they take or give (Inlining.cpp): a call of the
  // program's function that returns a struct, takes a struct that is not a parameter whole (a
  // local, which is a local per field), or writes a caller's variable through a reference, and a
  // method called on such a struct. The callee's body is converted in place, in a block
  // (ir::Stmt::inlinedCall) after its parameters' copies and before the statement that uses the
  // result; its returns assign the result's locals.
  struct InlinedCall {
    const FunctionDecl* callee;
    ir::Type type;                     // the result's
    std::vector<ir::ExprPtr> results;  // its locals: one, or one per field of a struct
    bool returnsAtEnd;                 // the body's last statement its only return: no block
  };
  bool isOwnDifferentiated(const FunctionDecl* def) const;
  std::string inliningReason(const CallExpr* call, const FunctionDecl* fd) const;
  bool isStructParameter(const Expr* e) const;
  bool isLocalStruct(const Expr* object) const;
  ir::ExprPtr convertFunctionObjectCall(const CXXOperatorCallExpr* call);
  // `where`: the call, or where an algorithm applies `def` to the values `converted` (its
  // arguments then, in place of the call's). `inBody`: what variables of the caller the body reads
  // in their place (a lambda's copies of what it captures by value).
  ir::ExprPtr inlineCall(const Expr* where, const FunctionDecl* def, const Expr* object, const std::string& why,
                         const std::map<const VarDecl*, ir::ExprPtr>& inBody = {},
                         const std::vector<ir::ExprPtr>* converted = nullptr);
  void bindValue(const FunctionDecl* def, const ParmVarDecl* p, const ir::ExprPtr& argument, bool unchanged,
                 ir::SourceLoc at, ir::StmtList& out);
  void bindParameter(const FunctionDecl* def, const ParmVarDecl* p, const Expr* arg,
                     const std::set<const VarDecl*>& written, ir::StmtList& out);
  void renameCalleeLocals(const FunctionDecl* def);
  ir::ExprPtr inlinedField(const CallExpr* call, const std::string& field);
  bool returnFromInlined(const ReturnStmt* rs, ir::StmtList& out);
  bool isInlinedValue(const ir::ExprPtr& e) const { return inlinedValues_.count(e) > 0; }
  std::string localName(const VarDecl* vd) const;
  std::string inlinedName(const FunctionDecl* def) const;
  std::vector<InlinedCall> inlined_;                            // being inlined, innermost last
  std::vector<std::map<std::string, ir::ExprPtr>> thisFields_;  // in an inlined method: its object's fields
  std::map<const CallExpr*, std::map<std::string, ir::ExprPtr>> inlinedStructs_;  // a struct result's field locals
  std::set<ir::ExprPtr> inlinedValues_;            // what inlined calls leave as their value
  std::map<const VarDecl*, std::string> renamed_;  // an inlined callee's locals, where renamed

  // Const member functions of structs (Methods.cpp).
  static bool isConstMethod(const FunctionDecl* fd);
  ir::ExprPtr convertMethodCall(const CXXMemberCallExpr* call);
  void addSelfParam(const FunctionDecl* fd, ir::Function& f);
  ir::ExprPtr convertThis(const Expr* e);
  std::string selfName_;  // in a method's function: the object's parameter
  ir::Type selfType_;

  // Lambdas (Lambdas.cpp).
  static bool isLambdaCallOperator(const FunctionDecl* fd);
  bool declareLambda(const VarDecl* vd, ir::StmtList& out);
  bool nameLambda(const LambdaExpr* lambda, const std::string& name, ir::StmtList& out);
  ir::ExprPtr convertLambdaCall(const CXXOperatorCallExpr* call);
  ir::ExprPtr lambdaCall(const CXXMethodDecl* method, std::vector<ir::ExprPtr> args, const Expr* call);
  void addCaptureParams(const FunctionDecl* fd, ir::Function& f);
  std::string lambdaName(const FunctionDecl* fd) const;
  std::string lambdaInliningReason(const CXXMethodDecl* method) const;
  std::map<const CXXRecordDecl*, std::string> lambdaNames_;       // closure type -> its function's name
  std::map<const CXXRecordDecl*, std::string> assignedCaptures_;  // a scalar captured by reference it assigns
  std::map<const VarDecl*, ir::Type> captured_;                   // in a lambda's function: its captures
  std::map<std::pair<const CXXRecordDecl*, const VarDecl*>, ir::ExprPtr> captureCopies_;  // by value
  std::string currentFunction_;  // the IR name of the function being converted

  // Cooperative groups as the CUDA built-ins they stand for (CooperativeGroups.cpp).
  bool isGroupType(QualType qt) const;
  std::optional<int> groupOf(const Expr* e);  // 0: the block; n: a tile of n threads
  void declareGroup(const VarDecl* vd);
  ir::ExprPtr convertGroupCall(const CallExpr* call, int group);
  bool isGroupFunction(const FunctionDecl* fd) const;
  ir::ExprPtr convertGroupFunction(const CallExpr* call);
  // e, if it is a call of cg::reduce giving a value of type `into`.
  const CallExpr* groupReduce(const Expr* e, QualType into) const;
  bool lowerReduce(const CallExpr* call, const ir::ExprPtr& into, bool declare, ir::StmtList& out);
  ir::ExprPtr warpShuffle(const std::string& kind, ir::ExprPtr value, ir::ExprPtr lane);
  std::map<const VarDecl*, int> groups_;
  bool usesGroups_ = false;  // by the function being converted
  void markOneDimensionalBlocks();

  // Host code over kernels (HostCode.cpp).
  std::optional<ir::Type> passedThroughType(QualType qt);
  ir::ExprPtr convertConstructed(const Expr* e);
  ir::ExprPtr convertLaunchArgument(const Expr* e);
  ir::ExprPtr convertCallArgument(const Expr* e);
  static ir::ExprPtr pointerSum(const PointerValue& p);
  ir::StmtPtr convertLaunch(const CUDAKernelCallExpr* launch);
  bool isLibraryCall(const CallExpr* call) const;
  std::map<const FunctionDecl*, bool> hostCode_;
  bool isHostCode(const FunctionDecl* fd);
  ir::StmtPtr convertLibraryCall(const CallExpr* call);
};

}  // namespace adjoint::frontend::detail
