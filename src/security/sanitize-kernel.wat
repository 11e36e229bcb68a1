;; The terminal sanitizer's fast path (see sanitize.ts), as WebAssembly with 128-bit SIMD.
;; `npm run build:kernel` compiles this file into sanitize-kernel.ts; a test checks the two agree.
;;
;; The caller copies a chunk of output into `memory` as UTF-16 code units from address 0 and calls
;; clean(p, e, o) with byte addresses: the input [p, e), the output from o. From ground state, the
;; kernel copies plain text (printable, and \t \n \r \b) to the output and drops what the state
;; machine in sanitize.ts drops without a trace:
;;   - a CSI (ESC [ parameters 0x20-0x3F, final 0x40-0x7E), except CSI 2 J, CSI 3 J, CSI s, CSI u;
;;   - an OSC (ESC ] payload) ended by BEL, 0x9C or ESC \, except OSC 52;
;;   - ESC, intermediates 0x20-0x2F, final 0x30-0x7E;
;;   - a two-byte ESC sequence with final 0x30-0x7E, except ESC P X ^ _ (strings) and ESC c 7 8;
;;   - a C0 control other than \t \n \r \b and ESC, DEL, and a C1 control that starts nothing.
;; It stops at anything else, at the first unit of it: the exceptions above (the state machine counts
;; them as suspicious), 8-bit introducers (0x90 0x98 0x9B 0x9D 0x9E 0x9F), controls inside a sequence,
;; and a sequence the chunk ends in the middle of. The state machine takes it from there.
;;
;; clean returns the end of the output, and the global `stop` holds the address where the kernel
;; stopped (e when it took the whole chunk). The output never runs longer than the input it came from,
;; so a chunk's input and output each fit in half the memory.
;; A chunk is at most 64 Ki units, so an OSC that ends in it is shorter than the state machine's
;; 64 Ki bound on strings, and the two agree on it.
(module
  (memory (export "memory") 4) ;; 256 KiB: input [0, 128 KiB), output [128 KiB, 256 KiB)
  (global $stop (export "stop") (mut i32) (i32.const 0))

  ;; Is the code unit plain text: 0x20-0x7E, 0xA0 and up, or \b \t \n \r?
  (func $plain (param $c i32) (result i32)
    (if (result i32) (i32.ge_u (local.get $c) (i32.const 0x20))
      (then (i32.or (i32.lt_u (local.get $c) (i32.const 0x7f)) (i32.ge_u (local.get $c) (i32.const 0xa0))))
      (else (i32.or (i32.lt_u (i32.sub (local.get $c) (i32.const 8)) (i32.const 3)) ;; \b \t \n
                    (i32.eq (local.get $c) (i32.const 13))))))                    ;; \r

  (func (export "clean") (param $p i32) (param $e i32) (param $q i32) (result i32)
    (local $c i32) (local $d i32) (local $j i32) (local $v v128)
    (local $k20 v128) (local $k8 v128) (local $k3 v128) (local $k13 v128) (local $k7f v128) (local $k21 v128)
    (local.set $k20 (i16x8.splat (i32.const 0x20)))
    (local.set $k8 (i16x8.splat (i32.const 8)))
    (local.set $k3 (i16x8.splat (i32.const 3)))
    (local.set $k13 (i16x8.splat (i32.const 13)))
    (local.set $k7f (i16x8.splat (i32.const 0x7f)))
    (local.set $k21 (i16x8.splat (i32.const 0x21)))
    (block $stop
      (loop $next
        ;; Eight units at a time: store them, then advance past those before the first non-plain one.
        (block $scalar
          (loop $simd
            (br_if $scalar (i32.gt_u (i32.add (local.get $p) (i32.const 16)) (local.get $e)))
            (local.set $v (v128.load align=2 (local.get $p)))
            (v128.store align=2 (local.get $q) (local.get $v))
            ;; Two mask bits per unit that is below 0x20 and not \b \t \n \r, or is in 0x7F-0x9F.
            (local.set $c (i8x16.bitmask (v128.or
              (v128.andnot
                (i16x8.lt_u (local.get $v) (local.get $k20))
                (v128.or (i16x8.lt_u (i16x8.sub (local.get $v) (local.get $k8)) (local.get $k3))
                         (i16x8.eq (local.get $v) (local.get $k13))))
              (i16x8.lt_u (i16x8.sub (local.get $v) (local.get $k7f)) (local.get $k21)))))
            (local.set $d (i32.ctz (i32.or (local.get $c) (i32.const 0x10000)))) ;; bytes of plain units
            (local.set $p (i32.add (local.get $p) (local.get $d)))
            (local.set $q (i32.add (local.get $q) (local.get $d)))
            (br_if $simd (i32.eqz (local.get $c)))))
        ;; One unit: the tail of the chunk, or the non-plain unit found above.
        (br_if $stop (i32.ge_u (local.get $p) (local.get $e)))
        (local.set $c (i32.load16_u (local.get $p)))
        (if (call $plain (local.get $c))
          (then
            (i32.store16 (local.get $q) (local.get $c))
            (local.set $p (i32.add (local.get $p) (i32.const 2)))
            (local.set $q (i32.add (local.get $q) (i32.const 2)))
            (br $next)))
        (if (i32.eq (local.get $c) (i32.const 0x1b))
          (then
            (br_if $stop (i32.ge_u (i32.add (local.get $p) (i32.const 2)) (local.get $e)))
            (local.set $d (i32.load16_u offset=2 (local.get $p)))
            (local.set $j (i32.add (local.get $p) (i32.const 4)))
            ;; CSI: ESC [, parameter and intermediate bytes 0x20-0x3F, a final byte 0x40-0x7E.
            (if (i32.eq (local.get $d) (i32.const 0x5b))
              (then
                (block $end (loop $more
                  (br_if $end (i32.ge_u (local.get $j) (local.get $e)))
                  (br_if $end (i32.gt_u (i32.sub (i32.load16_u (local.get $j)) (i32.const 0x20)) (i32.const 0x1f)))
                  (local.set $j (i32.add (local.get $j) (i32.const 2)))
                  (br $more)))
                (br_if $stop (i32.ge_u (local.get $j) (local.get $e)))
                (local.set $c (i32.load16_u (local.get $j)))
                (br_if $stop (i32.gt_u (i32.sub (local.get $c) (i32.const 0x40)) (i32.const 0x3e)))
                ;; CSI 2 J and CSI 3 J clear the screen.
                (br_if $stop (i32.and (i32.eq (local.get $c) (i32.const 0x4a))
                  (i32.and (i32.eq (local.get $j) (i32.add (local.get $p) (i32.const 6)))
                           (i32.lt_u (i32.sub (i32.load16_u offset=4 (local.get $p)) (i32.const 0x32)) (i32.const 2)))))
                ;; CSI s and CSI u save and restore the cursor.
                (br_if $stop (i32.and (i32.eq (local.get $j) (i32.add (local.get $p) (i32.const 4)))
                  (i32.or (i32.eq (local.get $c) (i32.const 0x73)) (i32.eq (local.get $c) (i32.const 0x75)))))
                (local.set $p (i32.add (local.get $j) (i32.const 2)))
                (br $next)))
            ;; OSC: ESC ], a payload, BEL or 0x9C or ESC \. OSC 52 (clipboard write) is left alone.
            (if (i32.eq (local.get $d) (i32.const 0x5d))
              (then
                (br_if $stop (i32.ge_u (i32.add (local.get $p) (i32.const 10)) (local.get $e)))
                (br_if $stop (i32.and (i32.eq (i32.load16_u offset=4 (local.get $p)) (i32.const 0x35))
                  (i32.and (i32.eq (i32.load16_u offset=6 (local.get $p)) (i32.const 0x32))
                           (i32.eq (i32.load16_u offset=8 (local.get $p)) (i32.const 0x3b)))))
                (block $end (loop $more
                  (br_if $end (i32.ge_u (local.get $j) (local.get $e)))
                  (local.set $c (i32.load16_u (local.get $j)))
                  (br_if $end (i32.eq (local.get $c) (i32.const 0x07)))
                  (br_if $end (i32.eq (local.get $c) (i32.const 0x1b)))
                  (br_if $end (i32.eq (local.get $c) (i32.const 0x9c)))
                  (br_if $end (i32.eq (local.get $c) (i32.const 0x18)))
                  (br_if $end (i32.eq (local.get $c) (i32.const 0x1a)))
                  (local.set $j (i32.add (local.get $j) (i32.const 2)))
                  (br $more)))
                (br_if $stop (i32.ge_u (local.get $j) (local.get $e)))
                (if (i32.or (i32.eq (local.get $c) (i32.const 0x07)) (i32.eq (local.get $c) (i32.const 0x9c)))
                  (then (local.set $p (i32.add (local.get $j) (i32.const 2))) (br $next)))
                ;; ESC \ ends it; CAN, SUB or ESC followed by anything else aborts it.
                (br_if $stop (i32.ne (local.get $c) (i32.const 0x1b)))
                (br_if $stop (i32.ge_u (i32.add (local.get $j) (i32.const 2)) (local.get $e)))
                (br_if $stop (i32.ne (i32.load16_u offset=2 (local.get $j)) (i32.const 0x5c)))
                (local.set $p (i32.add (local.get $j) (i32.const 4)))
                (br $next)))
            ;; ESC, intermediate bytes 0x20-0x2F, a final byte 0x30-0x7E (e.g. ESC ( B).
            (if (i32.lt_u (i32.sub (local.get $d) (i32.const 0x20)) (i32.const 0x10))
              (then
                (block $end (loop $more
                  (br_if $end (i32.ge_u (local.get $j) (local.get $e)))
                  (br_if $end (i32.gt_u (i32.sub (i32.load16_u (local.get $j)) (i32.const 0x20)) (i32.const 0x0f)))
                  (local.set $j (i32.add (local.get $j) (i32.const 2)))
                  (br $more)))
                (br_if $stop (i32.ge_u (local.get $j) (local.get $e)))
                (br_if $stop (i32.gt_u (i32.sub (i32.load16_u (local.get $j)) (i32.const 0x30)) (i32.const 0x4e)))
                (local.set $p (i32.add (local.get $j) (i32.const 2)))
                (br $next)))
            ;; A two-byte sequence (ESC =, ESC >, ESC M …): final byte 0x30-0x7E, but not
            ;; ESC P, X, ^, _ (they start strings) nor ESC c, 7, 8 (reset, cursor save and restore).
            (br_if $stop (i32.gt_u (i32.sub (local.get $d) (i32.const 0x30)) (i32.const 0x4e)))
            (br_if $stop (i32.eq (local.get $d) (i32.const 0x50)))
            (br_if $stop (i32.eq (local.get $d) (i32.const 0x58)))
            (br_if $stop (i32.eq (local.get $d) (i32.const 0x5e)))
            (br_if $stop (i32.eq (local.get $d) (i32.const 0x5f)))
            (br_if $stop (i32.eq (local.get $d) (i32.const 0x63)))
            (br_if $stop (i32.eq (local.get $d) (i32.const 0x37)))
            (br_if $stop (i32.eq (local.get $d) (i32.const 0x38)))
            (local.set $p (local.get $j))
            (br $next)))
        ;; 8-bit introducers: DCS 0x90, SOS 0x98, CSI 0x9B, OSC 0x9D, PM 0x9E, APC 0x9F.
        (br_if $stop (i32.eq (local.get $c) (i32.const 0x90)))
        (br_if $stop (i32.eq (local.get $c) (i32.const 0x98)))
        (br_if $stop (i32.eq (local.get $c) (i32.const 0x9b)))
        (br_if $stop (i32.ge_u (local.get $c) (i32.const 0x9d))) ;; 0x9D-0x9F: plain units are handled above
        ;; Any other control: dropped.
        (local.set $p (i32.add (local.get $p) (i32.const 2)))
        (br $next)))
    (global.set $stop (local.get $p))
    (local.get $q))
)
