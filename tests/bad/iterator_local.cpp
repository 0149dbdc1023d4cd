// RUN: rm -rf %t && mkdir %t && not %adjoint grad %s --fn f -o %t/out.cpp 2>&1 | FileCheck %s && ls -A %t | count 0
// CHECK-NOT: stl_iterator.h{{.*}}error
// CHECK: iterator_local.cpp:{{[0-9]+}}:3: error: type '__gnu_cxx::__normal_iterator<{{.*}}>' is not supported
// CHECK: note: {{.*}} index containers (x[i]) rather than iterate over them
// An iterator kept in a local: reported at the user's line, not inside the library's header.
#include <vector>

double f(const std::vector<double>& v) {
  auto it = v.begin();
  return *it * v[1];
}
