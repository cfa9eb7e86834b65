// Kernels with vector accesses (float4, uint4), brace operands and dynamic shared memory,
// in the style of NVIDIA's cuda-samples (convolutionSeparable, scan, sortingNetworks,
// fastWalshTransform), written for gpu-makespan's importer tests.
#define KERNEL_RADIUS 2
#define SHARED_SIZE_LIMIT 1024

__constant__ float c_Kernel[2 * KERNEL_RADIUS + 1];

// One vector load, four multiplies, one vector store: straight-line code to count by hand.
__global__ void scaleFloat4(float4 *d_Dst, const float4 *d_Src, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 v = d_Src[i];
    v.x *= s;
    v.y *= s;
    v.z *= s;
    v.w *= s;
    d_Dst[i] = v;
  }
}

// scan's uint4 path: four elements per thread, then a block scan of the sums in dynamic
// shared memory (extern __shared__: the launch gives its size).
__global__ void scanExclusiveShared4(uint4 *d_Dst, const uint4 *d_Src) {
  extern __shared__ unsigned int s_Data[];
  unsigned int pos = blockIdx.x * blockDim.x + threadIdx.x;
  uint4 idata4 = d_Src[pos];
  idata4.y += idata4.x;
  idata4.z += idata4.y;
  idata4.w += idata4.z;
  s_Data[threadIdx.x] = idata4.w;
  for (unsigned int offset = 1; offset < blockDim.x; offset <<= 1) {
    __syncthreads();
    unsigned int t = (threadIdx.x >= offset) ? s_Data[threadIdx.x - offset] : 0;
    __syncthreads();
    s_Data[threadIdx.x] += t;
  }
  __syncthreads();
  unsigned int oval = s_Data[threadIdx.x] - idata4.w;
  uint4 odata4;
  odata4.x = oval;
  odata4.y = oval + idata4.x;
  odata4.z = oval + idata4.y;
  odata4.w = oval + idata4.z;
  d_Dst[pos] = odata4;
}

// convolutionRows with float4 columns: a tile and its apron in static shared memory.
__global__ void convolutionRowsFloat4(float4 *d_Dst, const float4 *d_Src, int pitch) {
  __shared__ float4 s_Data[128 + 2 * KERNEL_RADIUS];
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  const float4 *src = d_Src + blockIdx.y * pitch;
  s_Data[threadIdx.x + KERNEL_RADIUS] = src[x];
  if (threadIdx.x < KERNEL_RADIUS) {
    s_Data[threadIdx.x] = src[max(x - KERNEL_RADIUS, 0)];
    s_Data[threadIdx.x + blockDim.x + KERNEL_RADIUS] = src[min(x + (int)blockDim.x, pitch - 1)];
  }
  __syncthreads();
  float4 sum = make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll
  for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++) {
    float4 v = s_Data[threadIdx.x + KERNEL_RADIUS + j];
    float k = c_Kernel[KERNEL_RADIUS - j];
    sum.x += k * v.x;
    sum.y += k * v.y;
    sum.z += k * v.z;
    sum.w += k * v.w;
  }
  d_Dst[blockIdx.y * pitch + x] = sum;
}

// sortingNetworks' bitonic sort in dynamic shared memory, keys and values as uint2.
__global__ void bitonicSortShared2(uint2 *d_Dst, const uint2 *d_Src, unsigned int dir) {
  extern __shared__ uint2 s_kv[];
  d_Src += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
  d_Dst += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
  s_kv[threadIdx.x] = d_Src[0];
  s_kv[threadIdx.x + SHARED_SIZE_LIMIT / 2] = d_Src[SHARED_SIZE_LIMIT / 2];
  for (unsigned int size = 2; size < SHARED_SIZE_LIMIT; size <<= 1) {
    unsigned int ddd = dir ^ ((threadIdx.x & (size / 2)) != 0);
    for (unsigned int stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      unsigned int pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
      uint2 a = s_kv[pos], b = s_kv[pos + stride];
      if ((a.x > b.x) == ddd) {
        s_kv[pos] = b;
        s_kv[pos + stride] = a;
      }
    }
  }
  __syncthreads();
  d_Dst[0] = s_kv[threadIdx.x];
  d_Dst[SHARED_SIZE_LIMIT / 2] = s_kv[threadIdx.x + SHARED_SIZE_LIMIT / 2];
}

// fastWalshTransform's butterfly across a warp with shuffles of doubles (mov.b64 into
// register pairs), the input fetched as float4 through a texture object.
__global__ void fwtWarpShfl(double *d_Out, cudaTextureObject_t tex) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = tex1Dfetch<float4>(tex, i);
  double d = (double)(v.x + v.y) - (double)(v.z + v.w);
#pragma unroll
  for (int stride = 1; stride < 32; stride <<= 1) {
    double o = __shfl_xor_sync(0xffffffffu, d, stride);
    d = (threadIdx.x & stride) ? o - d : d + o;
  }
  d_Out[i] = d;
}

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 750
// One m16n8k8 half-precision tile product on the tensor cores (sm_75 and later; no
// kernel for older targets), written as CUTLASS writes it, in inline PTX: the
// fragments are brace operands.
__global__ void mmaTile(float4 *d_D, const uint2 *d_A, const unsigned int *d_B) {
  int lane = threadIdx.x & 31;
  uint2 a = d_A[lane];
  unsigned int b = d_B[lane];
  float4 d = make_float4(0.f, 0.f, 0.f, 0.f);
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
               : "+f"(d.x), "+f"(d.y), "+f"(d.z), "+f"(d.w)
               : "r"(a.x), "r"(a.y), "r"(b));
  d_D[lane] = d;
}
#endif
