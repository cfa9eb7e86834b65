// Kernels in the style of NVIDIA's cuda-samples, written for gpu-makespan's test fixtures.
#define TILE_DIM 32
#define BLOCK_ROWS 8
#define BLOCK_SIZE 16
#define BIN_COUNT 256

__global__ void vectorAdd(const float *A, const float *B, float *C, int numElements) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < numElements) {
    C[i] = A[i] + B[i] + 0.0f;
  }
}

__global__ void transposeNoBankConflicts(float *odata, float *idata, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
  int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
  int index_in = xIndex + yIndex * width;
  xIndex = blockIdx.y * TILE_DIM + threadIdx.x;
  yIndex = blockIdx.x * TILE_DIM + threadIdx.y;
  int index_out = xIndex + yIndex * height;
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
    tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * width];
  }
  __syncthreads();
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
    odata[index_out + i * height] = tile[threadIdx.x][threadIdx.y + i];
  }
}

__global__ void matrixMulCUDA(float *C, float *A, float *B, int wA, int wB) {
  int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int aBegin = wA * BLOCK_SIZE * by;
  int aEnd = aBegin + wA - 1;
  int aStep = BLOCK_SIZE;
  int bBegin = BLOCK_SIZE * bx;
  int bStep = BLOCK_SIZE * wB;
  float Csub = 0;
  for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
    __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
    As[ty][tx] = A[a + wA * ty + tx];
    Bs[ty][tx] = B[b + wB * ty + tx];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BLOCK_SIZE; ++k) {
      Csub += As[ty][k] * Bs[k][tx];
    }
    __syncthreads();
  }
  int c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
  C[c + wB * ty + tx] = Csub;
}

__global__ void reduce4(const float *g_idata, float *g_odata, unsigned int n) {
  extern __shared__ float sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  float mySum = (i < n) ? g_idata[i] : 0;
  if (i + blockDim.x < n) mySum += g_idata[i + blockDim.x];
  sdata[tid] = mySum;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] = mySum = mySum + sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    if (blockDim.x >= 64) mySum += sdata[tid + 32];
    for (int offset = 16; offset > 0; offset /= 2) {
      mySum += __shfl_down_sync(0xffffffff, mySum, offset);
    }
  }
  if (tid == 0) g_odata[blockIdx.x] = mySum;
}

__global__ void histogram256Kernel(unsigned int *d_PartialHistograms, const unsigned int *d_Data, unsigned int dataCount) {
  __shared__ unsigned int s_Hist[BIN_COUNT];
  for (unsigned int i = threadIdx.x; i < BIN_COUNT; i += blockDim.x) s_Hist[i] = 0;
  __syncthreads();
  for (unsigned int pos = blockIdx.x * blockDim.x + threadIdx.x; pos < dataCount; pos += blockDim.x * gridDim.x) {
    unsigned int data = d_Data[pos];
    atomicAdd(&s_Hist[(data >> 0) & 0xFFU], 1);
    atomicAdd(&s_Hist[(data >> 8) & 0xFFU], 1);
    atomicAdd(&s_Hist[(data >> 16) & 0xFFU], 1);
    atomicAdd(&s_Hist[(data >> 24) & 0xFFU], 1);
  }
  __syncthreads();
  for (unsigned int bin = threadIdx.x; bin < BIN_COUNT; bin += blockDim.x) {
    atomicAdd(&d_PartialHistograms[blockIdx.x * BIN_COUNT + bin], s_Hist[bin]);
  }
}
