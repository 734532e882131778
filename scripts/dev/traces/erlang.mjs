// Erlang: erlc's errors (an unbound variable beside the unused-variable warning it causes; a call to a
// function that does not exist) and EUnit (a failing test among passing ones, "Failed: 1." summary).
import { story } from './story.mjs';

const makefile = 'ERLC = erlc\n\nall:\n\tmkdir -p ebin\n\t$(ERLC) -o ebin src/*.erl\n\ntest: all\n\terl -noshell -pa ebin -eval \'case eunit:test(calc, [verbose]) of ok -> halt(0); _ -> halt(1) end\'\n';
const calc = div => `-module(calc).\n-export([avg/1, total/1, avg_test/0, total_test/0]).\n\navg(Xs) -> lists:sum(Xs) ${div} length(Xs).\n\ntotal(Xs) -> lists:sum(Xs).\n\navg_test() -> 2.5 = avg([2, 3]).\ntotal_test() -> 5 = total([2, 3]).\n`;

export const episodes = [
  story({
    name: 'erlc-unbound-variable', family: 'erlang',
    files: {
      'Makefile': makefile,
      'src/cart.erl': '-module(cart).\n-export([total/1]).\n\ntotal(Items) ->\n    lists:sum([line(I) || I <- Items]).\n\nline({Qty, Price}) -> Qty * Pric.\n',
    },
    steps: [
      ['open', 'src/cart.erl'],
      ['run', 'make', 'fail'],
      ['replace', 'src/cart.erl', 'Qty * Pric.', 'Qty * Price.'],
      ['run', 'make', 0],
    ],
    label: {
      description: "make (erlc): src/cart.erl:7:29: variable 'Pric' is unbound, with a warning that variable 'Price' is unused (the same typo seen from the other side); fixed by Qty * Price. The warning is not the error",
      mustContain: ['Qty * Price.'], mustNotClaim: ['Makefile'],
      errors: ["variable 'Pric' is unbound"], mustNotSay: ["'Price' is unused"],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['note-line'],
    },
    queries: [
      { kind: 'related', file: 'src/invoice.erl', files: { 'src/invoice.erl': '-module(invoice).\n-export([net/1]).\n\nnet({Gross, Tax}) -> Gross - Taxx.\n' }, how: 'mkdir -p ebin && erlc -o ebin src/invoice.erl' },
      { kind: 'near', file: 'src/cart.erl', files: { 'src/cart.erl': '-module(cart).\n-export([line/1]).\n\nline({Qty, Price}) -> Qty * Price\n' }, how: 'mkdir -p ebin && erlc -o ebin src/cart.erl' },
    ],
  }),
  story({
    name: 'erlc-function-undefined', family: 'erlang',
    files: {
      'Makefile': makefile,
      'src/report.erl': '-module(report).\n-export([render/1]).\n\nrender(Sales) ->\n    io_lib:format("total: ~s~n", [format_total(lists:sum(Sales))]).\n\nformat_sum(N) -> integer_to_list(N).\n',
    },
    steps: [
      ['open', 'src/report.erl'],
      ['run', 'make', 'fail'],
      ['replace', 'src/report.erl', '[format_total(', '[format_sum('],
      ['run', 'make', 0],
    ],
    label: {
      description: 'make (erlc): "function format_total/1 undefined" in src/report.erl (with the warning that format_sum/1 is unused); the helper is called format_sum, the call fixed',
      mustContain: ['format_sum('], mustNotClaim: ['Makefile'],
      errors: ['function format_total/1 undefined'], mustNotSay: ['is unused'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['note-line'],
    },
    queries: [
      { kind: 'related', file: 'src/summary.erl', files: { 'src/summary.erl': '-module(summary).\n-export([line/1]).\n\nline(N) -> format_total(N).\n' }, how: 'mkdir -p ebin && erlc -o ebin src/summary.erl' },
      { kind: 'near', file: 'src/report.erl', files: { 'src/report.erl': '-module(report).\n-export([render/1]).\n\nrender(N) -> format_header(N).\n' }, how: 'mkdir -p ebin && erlc -o ebin src/report.erl' },
    ],
  }),
  story({
    name: 'eunit-avg-integer-division', family: 'eunit',
    files: { 'Makefile': makefile, 'src/calc.erl': calc('div') },
    steps: [
      ['open', 'src/calc.erl'],
      ['run', 'make test', 'fail'],
      ['replace', 'src/calc.erl', 'lists:sum(Xs) div length(Xs)', 'lists:sum(Xs) / length(Xs)'],
      ['run', 'make test', 0],
    ],
    label: {
      description: 'make test (EUnit): "calc: avg_test...*failed*" with **error:{badmatch,2} — avg used integer division; total_test passes; the summary is "Failed: 1.  Skipped: 0.  Passed: 1."; fixed by / instead of div',
      mustContain: ['lists:sum(Xs) / length(Xs)', 'avg_test'], mustNotClaim: ['Makefile'],
      errors: ['calc: avg_test...*failed*'], mustNotSay: ['Failed: 1.'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['summary-line'],
    },
    queries: [
      { kind: 'related', file: 'src/calc.erl', files: { 'Makefile': makefile, 'src/calc.erl': '-module(calc).\n-export([avg/1, avg_test/0]).\n\navg(Xs) -> lists:sum(Xs) div length(Xs).\n\navg_test() -> 1.5 = avg([1, 2]).\n' }, how: 'make test' },
      { kind: 'near', file: 'src/calc.erl', files: { 'Makefile': makefile, 'src/calc.erl': '-module(calc).\n-export([total/1, total_test/0]).\n\ntotal(Xs) -> lists:sum(Xs) + 1.\n\ntotal_test() -> 5 = total([2, 3]).\n' }, how: 'make test' },
    ],
  }),
];
