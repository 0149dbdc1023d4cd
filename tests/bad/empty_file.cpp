// ARGS: grad %s --fn f
// EXPECT: error: no function named 'f' is defined in
// EXPECT: note: the file defines no functions
