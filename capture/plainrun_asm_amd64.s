//go:build amd64 && !purego

#include "textflag.h"

// func plainBlocks(s []byte) (n int, escaped bool)
//
// A byte needs attention when it is '"', '\\', below 0x20 or from 0x80
// on; the last two are one signed comparison, 0x20 > b. A backslash
// followed by one of the one-letter escapes is stepped over here (and
// escaped set); anything else stops the scan.
TEXT ·plainBlocks(SB), NOSPLIT, $0-33
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), BX
	XORQ AX, AX
	XORL R8, R8
	LEAQ ·simpleEscape(SB), R9
	MOVQ $0x2222222222222222, DX
	MOVQ DX, X1
	PUNPCKLQDQ X1, X1
	MOVQ $0x5c5c5c5c5c5c5c5c, DX
	MOVQ DX, X2
	PUNPCKLQDQ X2, X2
	MOVQ $0x2020202020202020, DX
	MOVQ DX, X3
	PUNPCKLQDQ X3, X3

loop:
	LEAQ 16(AX), CX
	CMPQ CX, BX
	JGT  done
	MOVOU (SI)(AX*1), X0
	MOVO  X1, X4
	PCMPEQB X0, X4
	MOVO  X2, X5
	PCMPEQB X0, X5
	MOVO  X3, X6
	PCMPGTB X0, X6
	POR   X5, X4
	POR   X6, X4
	PMOVMSKB X4, DX
	TESTL DX, DX
	JNZ   found
	MOVQ  CX, AX
	JMP   loop

found:
	BSFL DX, DX
	ADDQ DX, AX
	MOVBLZX (SI)(AX*1), DX
	CMPL DX, $0x5c
	JNE  done
	LEAQ 1(AX), CX
	CMPQ CX, BX
	JGE  done
	MOVBLZX (SI)(CX*1), DX
	MOVBLZX (R9)(DX*1), DX
	TESTL DX, DX
	JZ   done
	MOVL $1, R8
	ADDQ $2, AX
	JMP  loop

done:
	MOVQ AX, n+24(FP)
	MOVB R8, escaped+32(FP)
	RET
