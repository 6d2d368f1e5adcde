// A tiny stack-machine interpreter: one program per thread, switch dispatch in a loop.

enum Op : unsigned char { PUSH, ADD, SUB, MUL, DIV, DUP, SWAP, JZ, JMP, LT, NEG, HALT, LOAD, STORE, POP, MOD };

struct Prog { const unsigned char *code; const int *imm; int len; };

__device__ __noinline__ int run_vm(const unsigned char *code, const int *imm, int len, int *mem, int fuel)
{
    int stack[16];
    int sp = 0, pc = 0;
    while (pc < len && fuel-- > 0) {
        unsigned char op = code[pc];
        int arg = imm[pc];
        ++pc;
        switch (op) {
        case PUSH: if (sp < 16) stack[sp++] = arg; break;
        case ADD: if (sp >= 2) { stack[sp - 2] += stack[sp - 1]; --sp; } break;
        case SUB: if (sp >= 2) { stack[sp - 2] -= stack[sp - 1]; --sp; } break;
        case MUL: if (sp >= 2) { stack[sp - 2] *= stack[sp - 1]; --sp; } break;
        case DIV: if (sp >= 2) { int d = stack[sp - 1]; stack[sp - 2] = d ? stack[sp - 2] / d : 0; --sp; } break;
        case MOD: if (sp >= 2) { int d = stack[sp - 1]; stack[sp - 2] = d ? stack[sp - 2] % d : 0; --sp; } break;
        case DUP: if (sp >= 1 && sp < 16) { stack[sp] = stack[sp - 1]; ++sp; } break;
        case SWAP: if (sp >= 2) { int t = stack[sp - 1]; stack[sp - 1] = stack[sp - 2]; stack[sp - 2] = t; } break;
        case JZ: if (sp >= 1 && stack[--sp] == 0) pc = arg; break;
        case JMP: pc = arg; break;
        case LT: if (sp >= 2) { stack[sp - 2] = stack[sp - 2] < stack[sp - 1]; --sp; } break;
        case NEG: if (sp >= 1) stack[sp - 1] = -stack[sp - 1]; break;
        case LOAD: if (sp < 16) stack[sp++] = mem[arg & 63]; break;
        case STORE: if (sp >= 1) mem[arg & 63] = stack[--sp]; break;
        case POP: if (sp >= 1) --sp; break;
        case HALT: return sp > 0 ? stack[sp - 1] : 0;
        default: return -1;
        }
    }
    return fuel <= 0 ? -2 : (sp > 0 ? stack[sp - 1] : 0);
}

__global__ void vm_kernel(const Prog *progs, int *results, int *memory, int nprog, int fuel)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nprog) return;
    Prog p = progs[i];
    results[i] = run_vm(p.code, p.imm, p.len, memory + 64 * i, fuel);
}
