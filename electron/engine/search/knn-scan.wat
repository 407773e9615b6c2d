;; The vector side's scan (search/vector-matrix.ts): one approximate cosine per stored row.
;; Rows are int8 (each unit vector scaled so its largest component is ±127, in blocks of 16
;; components, zero-padded); the query is int16. Per row: the dot product of the two in
;; WebAssembly SIMD (i32x4.dot_i16x8_s, 16 multiply-adds per block), times the row's scale,
;; written as f32 to out[r]. The caller divides by the query's own scale.
;;
;;
;; scan_cos: the same over int8 rows of any scale (vec0's own int8 vectors, read block by
;; block by search/int8-scan.ts): out[r] = dot(q, row) / |row| (0 for a zero row), the norm
;; summed in the same pass.
;;
;; Rebuilt into knn-scan-wasm.ts by `node scripts/build-knn-wasm.mjs` (a test checks that
;; the two agree).
(module
  (memory (export "memory") 1)
  ;; scan(q, rows, scales, out, n, blocks): q = blocks × 32 bytes (i16), rows = n × blocks
  ;; × 16 bytes (i8), scales = n × f32, out = n × f32.
  (func (export "scan") (param $q i32) (param $rows i32) (param $scales i32) (param $out i32) (param $n i32) (param $blocks i32)
    (local $r i32) (local $b i32) (local $qp i32) (local $acc v128) (local $d v128) (local $rp i32)
    (local.set $rp (local.get $rows))
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $r) (local.get $n)))
        (local.set $acc (v128.const i32x4 0 0 0 0))
        (local.set $qp (local.get $q))
        (local.set $b (local.get $blocks))
        (loop $block
          (local.set $d (v128.load (local.get $rp)))
          (local.set $acc (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (v128.load (local.get $qp)) (i16x8.extend_low_i8x16_s (local.get $d)))))
          (local.set $acc (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (v128.load offset=16 (local.get $qp)) (i16x8.extend_high_i8x16_s (local.get $d)))))
          (local.set $rp (i32.add (local.get $rp) (i32.const 16)))
          (local.set $qp (i32.add (local.get $qp) (i32.const 32)))
          (local.set $b (i32.sub (local.get $b) (i32.const 1)))
          (br_if $block (local.get $b)))
        (f32.store
          (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2)))
          (f32.mul
            (f32.convert_i32_s (i32.add
              (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
              (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))
            (f32.load (i32.add (local.get $scales) (i32.shl (local.get $r) (i32.const 2))))))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $row))))
  ;; scan_cos(q, rows, out, n, blocks): q = blocks × 32 bytes (i16), rows = n × blocks × 16
  ;; bytes (i8), out = n × f32.
  (func (export "scan_cos") (param $q i32) (param $rows i32) (param $out i32) (param $n i32) (param $blocks i32)
    (local $r i32) (local $b i32) (local $qp i32) (local $acc v128) (local $nrm v128) (local $lo v128) (local $hi v128) (local $rp i32) (local $norm f32)
    (local.set $rp (local.get $rows))
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $r) (local.get $n)))
        (local.set $acc (v128.const i32x4 0 0 0 0))
        (local.set $nrm (v128.const i32x4 0 0 0 0))
        (local.set $qp (local.get $q))
        (local.set $b (local.get $blocks))
        (loop $block
          (local.set $lo (i16x8.extend_low_i8x16_s (v128.load (local.get $rp))))
          (local.set $hi (i16x8.extend_high_i8x16_s (v128.load (local.get $rp))))
          (local.set $acc (i32x4.add (local.get $acc) (i32x4.dot_i16x8_s (v128.load (local.get $qp)) (local.get $lo))))
          (local.set $acc (i32x4.add (local.get $acc) (i32x4.dot_i16x8_s (v128.load offset=16 (local.get $qp)) (local.get $hi))))
          (local.set $nrm (i32x4.add (local.get $nrm) (i32x4.dot_i16x8_s (local.get $lo) (local.get $lo))))
          (local.set $nrm (i32x4.add (local.get $nrm) (i32x4.dot_i16x8_s (local.get $hi) (local.get $hi))))
          (local.set $rp (i32.add (local.get $rp) (i32.const 16)))
          (local.set $qp (i32.add (local.get $qp) (i32.const 32)))
          (local.set $b (i32.sub (local.get $b) (i32.const 1)))
          (br_if $block (local.get $b)))
        (local.set $norm (f32.sqrt (f32.convert_i32_s (i32.add
          (i32.add (i32x4.extract_lane 0 (local.get $nrm)) (i32x4.extract_lane 1 (local.get $nrm)))
          (i32.add (i32x4.extract_lane 2 (local.get $nrm)) (i32x4.extract_lane 3 (local.get $nrm)))))))
        (f32.store
          (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2)))
          (select
            (f32.div
              (f32.convert_i32_s (i32.add
                (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
                (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))
              (local.get $norm))
            (f32.const 0)
            (f32.gt (local.get $norm) (f32.const 0))))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $row)))))
