// Package batch runs one function over many inputs on a bounded number of
// workers and hands the results back in input order, as soon as each one
// and every one before it are done. At most a window of results is held at
// once, so memory is bounded by the workers, not by the number of inputs.
package batch

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
)

// Jobs is the number of workers for a --jobs value: n when positive, else
// GOMAXPROCS.
func Jobs(n int) int {
	if n > 0 {
		return n
	}
	return runtime.GOMAXPROCS(0)
}

// Window is how many results may be done or under way at once for a
// number of workers: enough that a slow input does not idle the others for
// long, few enough that the results held stay a small multiple of the
// workers.
func Window(jobs int) int { return 2 * jobs }

// PanicError is a panic of the function on one input, raised again on the
// goroutine that called Ordered when that input's turn to be emitted comes.
type PanicError struct {
	Index int
	Value any
	Stack []byte
}

func (p *PanicError) Error() string { return fmt.Sprintf("input %d: panic: %v", p.Index, p.Value) }

type result[R any] struct {
	i   int
	r   R
	err error
	pan *PanicError
}

type job[R any] struct {
	i   int
	out chan result[R]
}

// Ordered calls f on every input with at most jobs workers (Jobs(jobs))
// and calls emit with each input's index, result and error in input order,
// on the calling goroutine. An error of f belongs to its input: it is
// handed to emit and the other inputs go on. An error returned by emit
// stops the run: no further input is started, the workers under way are
// waited for, and Ordered returns that error. Cancelling ctx does the same
// and returns ctx's error; f receives a context that is cancelled then too.
// A panic in f is raised again on the calling goroutine, as a *PanicError,
// when that input's turn comes.
func Ordered[T, R any](ctx context.Context, jobs int, in []T, f func(context.Context, T) (R, error), emit func(i int, r R, err error) error) error {
	jobs = Jobs(jobs)
	if jobs > len(in) {
		jobs = max(len(in), 1)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	work := make(chan job[R])
	// pending holds the result channels of the inputs started, in input
	// order; its capacity bounds the results held.
	pending := make(chan chan result[R], Window(jobs)-jobs)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(work)
		defer close(pending)
		for i := range in {
			out := make(chan result[R], 1)
			select {
			case pending <- out:
			case <-ctx.Done():
				return
			}
			select {
			case work <- job[R]{i, out}:
			case <-ctx.Done():
				// Its turn in pending says it was cancelled.
				out <- result[R]{i: i, err: ctx.Err()}
				return
			}
		}
	}()
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				j.out <- call(ctx, j.i, in[j.i], f)
			}
		}()
	}
	defer wg.Wait()

	for out := range pending {
		var res result[R]
		select {
		case res = <-out:
		case <-ctx.Done():
			return ctx.Err()
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if res.pan != nil {
			cancel()
			wg.Wait()
			panic(res.pan)
		}
		if err := emit(res.i, res.r, res.err); err != nil {
			cancel()
			return err
		}
	}
	return ctx.Err()
}

func call[T, R any](ctx context.Context, i int, v T, f func(context.Context, T) (R, error)) (res result[R]) {
	defer func() {
		if p := recover(); p != nil {
			res = result[R]{i: i, pan: &PanicError{Index: i, Value: p, Stack: debug.Stack()}}
		}
	}()
	r, err := f(ctx, v)
	return result[R]{i: i, r: r, err: err}
}
