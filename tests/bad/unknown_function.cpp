// ARGS: grad %s --fn lossy
// EXPECT: error: no function named 'lossy' is defined in
// EXPECT: note: functions defined here: helper, loss
double helper(double x) { return x * 2; }
double loss(double x) { return helper(x) * x; }
