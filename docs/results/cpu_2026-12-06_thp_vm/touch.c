#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
int main(int argc,char**argv){size_t n=(size_t)atol(argv[1])<<20;int mode=atoi(argv[2]);
char*p=mmap(0,n,PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS,-1,0);
if(mode==1)madvise(p,n,MADV_HUGEPAGE); if(mode==2)madvise(p,n,MADV_NOHUGEPAGE);
double t=now(); for(size_t i=0;i<n;i+=4096)p[i]=1; double t1=now()-t;
munmap(p,n);
printf("mode %d: %.0f MB in %.3f s = %.2f GB/s\n",mode,n/1e6,t1,n/1e9/t1);}
