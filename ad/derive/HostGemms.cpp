#include "ad/derive/HostGemms.h"

#include <algorithm>

#include "ad/ir/Diagnostic.h"

namespace adjoint::derive {

using namespace ir;

namespace {

const Type kCount = Type::integer("long long");
const Type kError = Type::opaque("cudaError_t");

// Where an entry point keeps each argument. All begin with the handle, the transpositions of A
// and B, m, n, k and alpha (0 to 6); -1: the entry point has no such argument.
struct GemmForm {
  const char* callee;
  int A, lda, B, ldb, beta, C, ldc;
  int strideA, strideB, strideC, batch;         // the strided batched forms
  int typeA, typeB, typeC, compute, algorithm;  // the Ex forms
  size_t arguments;
};
constexpr int kHandle = 0, kTransA = 1, kTransB = 2, kM = 3, kN = 4, kK = 5, kAlpha = 6;

const GemmForm kForms[] = {
    {"cublasSgemm", 7, 8, 9, 10, 11, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1, -1, 14},
    {"cublasDgemm", 7, 8, 9, 10, 11, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1, -1, 14},
    {"cublasGemmEx", 7, 9, 10, 12, 13, 14, 16, -1, -1, -1, -1, 8, 11, 15, 17, 18, 19},
    {"cublasSgemmStridedBatched", 7, 8, 10, 11, 13, 14, 15, 9, 12, 16, 17, -1, -1, -1, -1, -1, 18},
    {"cublasDgemmStridedBatched", 7, 8, 10, 11, 13, 14, 15, 9, 12, 16, 17, -1, -1, -1, -1, -1, 18},
    {"cublasGemmStridedBatchedEx", 7, 9, 11, 13, 15, 16, 18, 10, 14, 19, 20, 8, 12, 17, 21, 22, 23},
};

const GemmForm* formOf(const std::string& callee) {
  for (const GemmForm& f : kForms)
    if (callee == f.callee) return &f;
  return nullptr;
}
const GemmForm& formOf(const Step& step) { return *formOf(step.stmt->expr->text); }

// Whether `e` is &x for a local x declared 0 (and, host code being straight-line, never changed).
bool pointsToZero(const ExprPtr& e, const StmtList& locals) {
  if (!isOp(*e, Op::AddressOf) || e->operands[0]->kind != ExprKind::Var) return false;
  for (const StmtPtr& d : locals)
    if (d->name == e->operands[0]->text) return d->expr && isZero(d->expr);
  return false;
}

// An Ex form's data type for an operand must be the buffer's: Adjoint differentiates float and
// double buffers, and their adjoints have the buffers' type.
void checkDataType(const Stmt& s, const ExprPtr& type, const Type& element) {
  std::string expected = element.scalar == Scalar::Double ? "CUDA_R_64F" : "CUDA_R_32F";
  if (type->kind != ExprKind::Var || type->text != expected)
    throw Diagnostic(s.loc, "the data types of a " + s.expr->text + " must be " + expected + ", as its buffers are",
                     "Adjoint differentiates GEMMs on float (CUDA_R_32F) and double (CUDA_R_64F) buffers; half and "
                     "bfloat16 storage is not supported yet");
}

// One past the last element of an m x n column-major matrix (op = N) or its transpose (op = T).
ExprPtr matrixExtent(const ExprPtr& op, const ExprPtr& rows, const ExprPtr& cols, const ExprPtr& ld) {
  bool transposed = op->text == "CUBLAS_OP_T";
  const ExprPtr& stored = transposed ? cols : rows;
  const ExprPtr& columns = transposed ? rows : cols;
  return add(mul(cast(kCount, ld), sub(columns, number(1, columns->type))), stored);
}

// The shape's arguments that gemm_vjp and gemm_jvp take after the derivatives: the batch
// (adjoint::Batch) and the math (adjoint::GemmMath), each only where the form has them.
std::vector<ExprPtr> shapeArguments(const GemmForm& f, const std::vector<ExprPtr>& args) {
  std::vector<ExprPtr> out;
  if (f.batch >= 0)
    out.push_back(call("adjoint::Batch", {args[f.strideA], args[f.strideB], args[f.strideC], args[f.batch]},
                       Type::opaque("adjoint::Batch")));
  if (f.compute >= 0)
    out.push_back(call("adjoint::GemmMath", {args[f.compute], args[f.algorithm]}, Type::opaque("adjoint::GemmMath")));
  return out;
}

}  // namespace

bool isGemm(const std::string& callee) { return formOf(callee) != nullptr; }

Step describeGemm(const Stmt& s, const Function& host, const StmtList& locals) {
  const GemmForm& f = *formOf(s.expr->text);
  const std::vector<ExprPtr>& args = s.expr->operands;
  if (args.size() != f.arguments)
    throw InternalError("a call of " + s.expr->text + " without its " + std::to_string(f.arguments) + " arguments");
  for (int t : {kTransA, kTransB})
    if (args[t]->kind != ExprKind::Var || (args[t]->text != "CUBLAS_OP_N" && args[t]->text != "CUBLAS_OP_T"))
      throw Diagnostic(s.loc, "the transposition of a GEMM must be CUBLAS_OP_N or CUBLAS_OP_T, written out",
                       "Adjoint chooses the GEMMs of the gradient by the transpositions of the forward's");
  for (int scalar : {kAlpha, f.beta})
    if (!isOp(*args[scalar], Op::AddressOf))
      throw Diagnostic(s.loc, "alpha and beta of a GEMM must be the addresses of host variables (&alpha)",
                       "cuBLAS's default pointer mode: declare const float alpha = 1.0f and pass &alpha");
  Step step{
      &s, StepKind::Gemm, call("adjoint::stream_of", {args[kHandle]}, Type::opaque("cudaStream_t")), nullptr, {}, {},
      {}};
  step.batched = f.batch >= 0;
  int types[] = {f.typeA, f.typeB, f.typeC};
  int operands[] = {f.A, f.B, f.C};
  for (int o = 0; o < 3; ++o) {
    BufferArg b = bufferArg(s, host, static_cast<size_t>(operands[o]), args[operands[o]]);
    bool c = operands[o] == f.C;
    b.reads = !c || !pointsToZero(args[f.beta], locals);
    b.writes = c;
    b.updates = c && b.reads;
    if (types[o] >= 0) checkDataType(s, args[types[o]], host.param(b.buffer)->type.element());
    step.buffers.push_back(b);
  }
  return step;
}

ExprPtr gemmExtent(const Step& step, const BufferArg& b) {
  const GemmForm& f = formOf(step);
  const std::vector<ExprPtr>& a = step.stmt->expr->operands;
  int position = static_cast<int>(b.position);
  ExprPtr matrix = position == f.A   ? matrixExtent(a[kTransA], a[kM], a[kK], a[f.lda])
                   : position == f.B ? matrixExtent(a[kTransB], a[kK], a[kN], a[f.ldb])
                                     : matrixExtent(var("CUBLAS_OP_N", a[kTransA]->type), a[kM], a[kN], a[f.ldc]);
  if (f.batch < 0) return matrix;
  const ExprPtr& stride = a[position == f.A ? f.strideA : position == f.B ? f.strideB : f.strideC];
  return add(mul(cast(kCount, stride), sub(a[f.batch], number(1, a[f.batch]->type))), matrix);
}

ExprPtr gemmCall(const Step& step, std::vector<ExprPtr> args) {
  const std::string& callee = step.stmt->expr->text;
  if (callee == "cublasSgemm" || callee == "cublasDgemm") return call("adjoint::gemm", std::move(args), kError);
  return call("adjoint::as_cuda_error", {call(callee, std::move(args), Type::opaque("cublasStatus_t"))}, kError);
}

ExprPtr gemmDerivative(const Step& step, bool reverse, const std::vector<ExprPtr>& args,
                       const std::vector<ExprPtr>& derivatives, const ExprPtr& adjoints) {
  const GemmForm& f = formOf(step);
  // The GEMM's arguments but C: handle, transpositions, m, n, k, alpha, A, lda, B, ldb, beta, ldc.
  std::vector<ExprPtr> out(args.begin(), args.begin() + kAlpha + 1);
  for (int a : {f.A, f.lda, f.B, f.ldb, f.beta, f.ldc}) out.push_back(args[a]);
  out.insert(out.end(), derivatives.begin(), derivatives.end());
  std::vector<ExprPtr> shape = shapeArguments(f, args);
  if (reverse && (adjoints || !shape.empty()))
    out.push_back(adjoints ? adjoints : call("adjoint::GemmAdjoints", {}, Type::opaque("adjoint::GemmAdjoints")));
  out.insert(out.end(), shape.begin(), shape.end());
  return call(reverse ? "adjoint::gemm_vjp" : "adjoint::gemm_jvp", out, kError);
}

}  // namespace adjoint::derive
