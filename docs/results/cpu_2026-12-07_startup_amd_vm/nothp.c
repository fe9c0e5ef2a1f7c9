#include <sys/prctl.h>
#include <unistd.h>
#include <stdio.h>
int main(int argc, char** argv) {
  if (prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) != 0) { perror("prctl"); return 1; }
  execv(argv[1], argv + 1); perror("execv"); return 1;
}
