package reduce

import (
	"strings"
	"testing"
)

func TestTrimRuntimeFrames(t *testing.T) {
	filler := repeat(120, func(i int) string { return "step " + strings.Repeat("x", i%7) })
	cases := []struct {
		name       string
		trace      []string
		keep, lose []string
	}{
		{
			name: "v8 frames after a user frame",
			trace: []string{
				"TypeError: cannot read properties of undefined (reading 'id')",
				"    at lookup (file:///srv/app/users.mjs:41:17)",
				"    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)",
				"    at async Promise.all (index 0)",
				"    at new Promise (<anonymous>)",
				"    at node:internal/main/run_main_module:28:49",
			},
			keep: []string{"at lookup (file:///srv/app/users.mjs:41:17)", "TypeError: cannot read"},
			lose: []string{"node:internal/process/task_queues", "new Promise (<anonymous>)", "run_main_module"},
		},
		{
			name: "tap yaml stack",
			trace: []string{
				"  error: 'boom'",
				"  stack: |-",
				"    checkTotals (file:///srv/app/totals.test.mjs:12:3)",
				"    Test.runInAsyncScope (node:async_hooks:211:14)",
				"    Suite.run (node:internal/test_runner/test:931:25)",
				"    Array.map (<anonymous>)",
				"  ...",
			},
			keep: []string{"checkTotals (file:///srv/app/totals.test.mjs:12:3)"},
			lose: []string{"node:async_hooks", "Suite.run (node:internal", "Array.map (<anonymous>)"},
		},
		{
			name: "rust backtrace keeps the crate's frames",
			trace: []string{
				"thread 'parse::empty' panicked at src/parse.rs:20:5:",
				"stack backtrace:",
				"   0: std::panicking::begin_panic_handler",
				"             at /rustc/0123abcd/library/std/src/panicking.rs:652:5",
				"   1: core::panicking::panic_fmt",
				"             at /rustc/0123abcd/library/core/src/panicking.rs:72:14",
				"   2: demo::parse::tests::empty",
				"             at ./src/parse.rs:20:5",
				"   3: core::ops::function::FnOnce::call_once",
				"             at /rustc/0123abcd/library/core/src/ops/function.rs:250:5",
				"note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.",
			},
			keep: []string{"   2: demo::parse::tests::empty", "at ./src/parse.rs:20:5", "panicked at src/parse.rs:20:5:", "stack backtrace:"},
			lose: []string{"begin_panic_handler", "core::panicking::panic_fmt", "FnOnce::call_once", "/rustc/"},
		},
		{
			name: "go goroutine trace",
			trace: []string{
				"panic: runtime error: index out of range [3] with length 3",
				"",
				"goroutine 9 [running]:",
				"testing.tRunner.func1.2({0x4f1a40, 0xc000016120})",
				"\t/usr/lib/go/src/testing/testing.go:1632 +0x230",
				"panic({0x4f1a40?, 0xc000016120?})",
				"\t/usr/lib/go/src/runtime/panic.go:770 +0x132",
				"demo/queue.(*Ring).Pop(...)",
				"\t/home/dev/demo/queue/ring.go:33",
				"demo/queue.TestPop(0xc0000a2b60)",
				"\t/home/dev/demo/queue/ring_test.go:18 +0x3c",
				"testing.tRunner(0xc0000a2b60, 0x51c2f8)",
				"\t/usr/lib/go/src/testing/testing.go:1689 +0xfb",
				"created by testing.(*T).Run in goroutine 1",
				"\t/usr/lib/go/src/testing/testing.go:1742 +0x390",
			},
			keep: []string{"goroutine 9 [running]:", "demo/queue.(*Ring).Pop(...)", "\t/home/dev/demo/queue/ring.go:33", "demo/queue.TestPop(0xc0000a2b60)", "ring_test.go:18 +0x3c"},
			lose: []string{"testing.tRunner", "panic({0x4f1a40", "/src/runtime/panic.go", "created by testing"},
		},
		{
			name: "java frames",
			trace: []string{
				"Exception in thread \"main\" java.lang.IllegalStateException: empty cart",
				"\tat java.base/java.util.Objects.requireNonNull(Objects.java:259)",
				"\tat shop.Cart.checkout(Cart.java:31)",
				"\tat shop.Main.main(Main.java:9)",
				"\tat jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)",
			},
			keep: []string{"at shop.Cart.checkout(Cart.java:31)", "at shop.Main.main(Main.java:9)"},
			lose: []string{"java.base/java.util.Objects", "jdk.internal.reflect"},
		},
		{
			name: "a trace of runtime frames only is left alone",
			trace: []string{
				"Error: listen EADDRINUSE: address already in use :::8080",
				"    at Server.setupListenHandle [as _listen2] (node:net:1817:16)",
				"    at listenInCluster (node:net:1865:12)",
				"    at node:net:2074:7",
			},
			keep: []string{"(node:net:1817:16)", "(node:net:1865:12)", "at node:net:2074:7"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := lines(append(append(append([]string{}, filler...), c.trace...), filler...)...)
			res, ok := With("generic", text, DefaultOptions())
			if !ok {
				t.Fatal("not reduced")
			}
			for _, k := range c.keep {
				if !strings.Contains(res.Text, k) {
					t.Errorf("lost %q:\n%s", k, res.Text)
				}
			}
			for _, l := range c.lose {
				if strings.Contains(res.Text, l) {
					t.Errorf("kept %q:\n%s", l, res.Text)
				}
			}
			if miss := Missing(Evidence("generic", text, DefaultOptions()), res.Text); len(miss) > 0 {
				t.Errorf("evidence lost: %q", miss)
			}
		})
	}
}

func TestFrameAtDeclines(t *testing.T) {
	// Lines that only look a little like frames are not frames.
	for _, l := range []string{
		"location: '/srv/app/cart.test.mjs:7:5'",
		"app.c:5:41: warning: unused variable ‘x’ [-Wunused-variable]",
		"3: the third item",
		"at the end of the day",
		"see the docs (chapter 3)",
	} {
		d := newDoc(l + "\n")
		if k := frameAt(d, 0, notFrame); k != notFrame && k != userFrame {
			t.Errorf("%q: kind %d", l, k)
		}
		if k := frameAt(d, 0, notFrame); k == runtimeFrame {
			t.Errorf("%q classified as a runtime frame", l)
		}
	}
}
