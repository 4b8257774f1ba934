package batch

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

func ints(n int) []int {
	in := make([]int, n)
	for i := range in {
		in[i] = i
	}
	return in
}

// jitter makes later inputs finish before earlier ones.
func jitter(i int) {
	time.Sleep(time.Duration(rand.IntN(200)) * time.Microsecond)
}

func TestOrderedKeepsInputOrder(t *testing.T) {
	for _, jobs := range []int{0, 1, 2, 3, 8, 100} {
		t.Run(fmt.Sprint(jobs), func(t *testing.T) {
			in := ints(300)
			var got []int
			err := Ordered(context.Background(), jobs, in, func(_ context.Context, v int) (int, error) {
				jitter(v)
				return v * v, nil
			}, func(i, r int, err error) error {
				if err != nil {
					t.Fatalf("input %d: %v", i, err)
				}
				if r != in[i]*in[i] {
					t.Fatalf("input %d: result %d, want %d", i, r, in[i]*in[i])
				}
				got = append(got, i)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, in) {
				t.Fatalf("emitted %v, want every input in order", got)
			}
		})
	}
}

func TestOrderedNoInput(t *testing.T) {
	err := Ordered(context.Background(), 4, []int(nil), func(context.Context, int) (int, error) {
		t.Fatal("f called without input")
		return 0, nil
	}, func(int, int, error) error {
		t.Fatal("emit called without input")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestOrderedErrorBelongsToItsInput(t *testing.T) {
	in := ints(50)
	bad := errors.New("bad input")
	var ok, failed []int
	err := Ordered(context.Background(), 4, in, func(_ context.Context, v int) (int, error) {
		jitter(v)
		if v%7 == 3 {
			return 0, fmt.Errorf("input %d: %w", v, bad)
		}
		return v, nil
	}, func(i, r int, err error) error {
		if err != nil {
			if !errors.Is(err, bad) || err.Error() != fmt.Sprintf("input %d: bad input", i) {
				t.Errorf("input %d: error %v", i, err)
			}
			failed = append(failed, i)
			return nil
		}
		ok = append(ok, r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(failed) != 7 || len(ok) != 43 {
		t.Fatalf("%d failed, %d ok; want 7 and 43 (every other input still reported)", len(failed), len(ok))
	}
	if !slices.IsSorted(failed) || !slices.IsSorted(ok) {
		t.Fatalf("out of order: failed %v, ok %v", failed, ok)
	}
}

func TestOrderedEmitErrorStops(t *testing.T) {
	in := ints(1000)
	var started atomic.Int64
	stop := errors.New("stop")
	var emitted int
	err := Ordered(context.Background(), 2, in, func(_ context.Context, v int) (int, error) {
		started.Add(1)
		return v, nil
	}, func(i, _ int, _ error) error {
		emitted++
		if i == 10 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Fatalf("error %v, want %v", err, stop)
	}
	if emitted != 11 {
		t.Fatalf("emitted %d, want 11", emitted)
	}
	// Inputs past the window are never started.
	if n := started.Load(); n > 11+int64(Window(2))+1 {
		t.Fatalf("%d inputs started after emit stopped at 11", n)
	}
}

func TestOrderedCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	in := ints(1000)
	var started, running, after atomic.Int64
	done := make(chan struct{})
	err := Ordered(ctx, 3, in, func(ctx context.Context, v int) (int, error) {
		started.Add(1)
		running.Add(1)
		defer running.Add(-1)
		if v == 20 {
			cancel()
		}
		select {
		case <-done:
			after.Add(1)
		default:
		}
		return v, nil
	}, func(int, int, error) error { return nil })
	close(done)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if n := running.Load(); n != 0 {
		t.Fatalf("%d calls still running after Ordered returned", n)
	}
	if n := started.Load(); n > 20+int64(Window(3))+2 {
		t.Fatalf("%d inputs started after cancelling at 20", n)
	}
	if after.Load() != 0 {
		t.Fatal("a call ran after Ordered returned")
	}
}

func TestOrderedBoundsHeldResults(t *testing.T) {
	// The first input waits until the others have filled the window and
	// then a little longer: they finish but cannot be emitted, so no more
	// than a window of inputs may have started.
	const jobs = 4
	in := ints(500)
	var started atomic.Int64
	var ahead int64
	err := Ordered(context.Background(), jobs, in, func(_ context.Context, v int) (int, error) {
		started.Add(1)
		if v == 0 {
			for started.Load() < jobs+1 {
				runtime.Gosched()
			}
			time.Sleep(5 * time.Millisecond)
			ahead = started.Load()
		}
		return v, nil
	}, func(int, int, error) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if ahead > int64(Window(jobs))+1 {
		t.Fatalf("%d inputs started while the first was under way, want at most %d", ahead, Window(jobs)+1)
	}
}

func TestOrderedRaisesPanicInOrder(t *testing.T) {
	in := ints(40)
	var emitted []int
	defer func() {
		p := recover()
		pe, ok := p.(*PanicError)
		if !ok || pe.Index != 25 || pe.Value != "boom" {
			t.Fatalf("recovered %v, want the panic of input 25", p)
		}
		if len(emitted) != 25 {
			t.Fatalf("emitted %d inputs before the panic, want 25", len(emitted))
		}
	}()
	Ordered(context.Background(), 3, in, func(_ context.Context, v int) (int, error) {
		if v == 25 {
			panic("boom")
		}
		return v, nil
	}, func(i, _ int, _ error) error {
		emitted = append(emitted, i)
		return nil
	})
	t.Fatal("Ordered returned after a panic")
}

func TestJobs(t *testing.T) {
	if Jobs(3) != 3 {
		t.Fatal("Jobs(3) != 3")
	}
	if Jobs(0) < 1 || Jobs(-1) != Jobs(0) {
		t.Fatal("Jobs(0) is not GOMAXPROCS")
	}
}
