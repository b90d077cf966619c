//! Layouts with symbols through `rcute eval` (`docs/language.md`,
//! "Symbols"). Each case is a script and the expected output lines; the
//! expected values are derived by hand (below each case, or in the comment
//! of its group): a layout with symbols is the layout of the literal, its
//! queries follow the definitions of `size`, `cosize`, ..., and after
//! `subs` it is the concrete layout. The algebra cases are in their own
//! test (`symbols::algebra`): their expected values are the concrete results
//! of `rcute eval` for N = 8 and 16 (printed forms identical for both),
//! written with `N`.

/// The output lines of `rcute eval -f -` on `script`.
fn run(script: &str) -> Vec<String> {
    let out = crate::rcute_with_input(&["eval", "-f", "-"], script.as_bytes().to_vec());
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// Runs `(statement, expected)` pairs after the declarations `prelude` (one
/// script, so assignments carry over) and reports every mismatch at once.
/// An expected value ending in `...` is a prefix.
fn check(prelude: &[&str], cases: &[(&str, &str)]) {
    let mut script = String::new();
    for p in prelude {
        script.push_str(p);
        script.push('\n');
    }
    for (s, _) in cases {
        script.push_str(s);
        script.push('\n');
    }
    let out = run(&script);
    assert_eq!(out.len(), prelude.len() + cases.len(), "{out:#?}");
    let mut bad = Vec::new();
    for ((stmt, want), got) in cases.iter().zip(&out[prelude.len()..]) {
        let ok = match want.strip_suffix("...") {
            Some(prefix) => got.starts_with(prefix),
            None => got == want,
        };
        if !ok {
            bad.push(format!("{stmt}\n  want: {want}\n  got:  {got}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn literals_and_printing() {
    check(
        &["assume N", "assume M % 4 == 0"],
        &[
            // the literal's shape and stride, printed as a layout
            ("(N,4):(1,N)", "(N, 4):(1, N)"),
            ("N:1", "N:1"),
            ("((4,N),M):((1,4),4*N)", "((4, N), M):((1, 4), 4*N)"),
            ("(M,N):(1,M)", "(M, N):(1, M)"),
            // no symbol: a plain layout, as before
            ("(4,8):(1,4)", "(4, 8):(1, 4)"),
            // the arithmetic resolves N - N + 4 before the literal is built
            ("(N - N + 4):1", "4:1"),
            // a tuple where the shape has a leaf is a coordinate stride
            ("N:(1,2)", "error: type: layout: the stride (1, 2) of the extent N: a layout with symbols has integer strides..."),
            ("(N,4):(1,)", "error: congruence: layout: shape (N, 4) and stride (1,) are not congruent"),
            // -N is not proven positive
            ("(-N):1", "error: value: shape -N has the extent -N, which is not proven positive..."),
            // an undeclared name stays an unknown name
            ("(Q,4):(1,Q)", "error: value: unknown name 'Q'"),
            ("((N,4):(1,N), 3)", "(Layout((N, 4), (1, N)), 3)"),
        ],
    );
}

#[test]
fn constructors() {
    check(
        &["assume M, N"],
        &[
            // column-major: strides 1, M (prefix products of the shape)
            ("Layout((M, N))", "(M, N):(1, M)"),
            ("LayoutLeft((M, 4))", "(M, 4):(1, M)"),
            // 1, M, M*N
            ("Layout((M, (N, 4)))", "(M, (N, 4)):(1, (M, M*N))"),
            // a stride 8 seeding the sub-shape (N, 4): 8, 8*N
            ("Layout((M, (N, 4)), (1, 8))", "(M, (N, 4)):(1, (8, 8*N))"),
            // row-major: from the right, 1, 4, 4*N
            ("LayoutRight((M, N, 4))", "(M, N, 4):(4*N, 4, 1)"),
            ("make_layout((M, N))", "(M, N):(1, M)"),
            ("make_layout((M, N), (N, 1))", "(M, N):(N, 1)"),
            ("Layout((4, 8), (1, N))", "(4, 8):(1, N)"),
            ("Layout((M, N), (1,))", "error: rank: Layout(S, D): the stride (1,) has 1 modes where the shape (M, N) has 2"),
            ("make_layout((M,N):(1,M), 4:1)", "error: type: make_layout: the layout with symbols..."),
            // no symbol: as before
            ("Layout((4, 8))", "(4, 8):(1, 4)"),
        ],
    );
}

#[test]
fn other_styles() {
    let o = crate::rcute_with_input(
        &["eval", "--style", "repr", "-f", "-"],
        b"assume N\n(N,4):(1,N)\n((N,4):(1,N),)\n".to_vec(),
    );
    // repr: Layout(<shape>, <stride>), as for concrete layouts
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "N >= 1\nLayout((N, 4), (1, N))\n(Layout((N, 4), (1, N)),)\n"
    );
    let o = crate::rcute_with_input(
        &["eval", "--style", "cpp", "-f", "-"],
        b"assume N\n((N,4),2):((1,N),4*N)\n".to_vec(),
    );
    // C++ style: no spaces after the commas
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "N >= 1\n((N,4),2):((1,N),4*N)\n"
    );
}

#[test]
fn queries() {
    check(
        &["assume N", "assume K % 8 == 0", "L = (N,4):(1,N)"],
        &[
            // N * 4
            ("size(L)", "4*N"),
            // 1 + (N-1)*1 + (4-1)*N
            ("cosize(L)", "4*N"),
            // |-1| counts: 1 + (N-1)*1 + 3*N
            ("cosize((N,4):(-1,N))", "4*N"),
            ("cosize(4:(N-4))", "error: value: cosize(4:N - 4): the sign of the stride N - 4 is not decided by the symbols' facts"),
            ("rank(L)", "2"),
            ("depth(L)", "1"),
            ("depth(((4,N),2):((1,4),4*N))", "2"),
            ("shape(L)", "(N, 4)"),
            ("stride(L)", "(1, N)"),
            ("size[1](L)", "4"),
            ("shape[0](((4,N),K):((1,4),4*N))", "(4, N)"),
            ("stride[0](((4,N),K):((1,4),4*N))", "(1, 4)"),
            ("size(((4,N),K):((1,4),4*N))", "4*N*K"),
            // mode access: mode 1 is 4:N; a mode without symbols is a plain layout
            ("L[0]", "N:1"),
            ("L[1]", "4:N"),
            ("L[-1]", "4:N"),
            ("get(L, 1)", "4:N"),
            ("((N,4):(1,8))[1] == (4:8)", "True"),
            ("L[2]", "error: bounds: mode 2 out of range for (N, 4):(1, N) of rank 2"),
            ("L == ((N,4):(1,N))", "True"),
            ("L == ((N,4):(1,2*N))", "False"),
        ],
    );
}

#[test]
fn evaluation() {
    check(
        &["assume N", "L = (N,4):(1,N)"],
        &[
            // idx2crd(5, (N,4)) = (5 % N, 5 // N): 5 % N + N*(5//N)
            ("L(5)", "N*(5//N) + (5 % N)"),
            // the coordinate (1, 2): 1*1 + 2*N
            ("L(1, 2)", "2*N + 1"),
            ("L((1, 2))", "2*N + 1"),
            // the coordinate (N, 1): N*1 + 1*N
            ("L(N, 1)", "2*N"),
            // a concrete layout at a symbolic index: (N % 4) + 4*(N//4)
            ("((4,8):(1,4))(N)", "4*(N//4) + (N % 4)"),
            ("(8:1)(N)", "N"),
            // slicing keeps the modes at `_` (hand: mode 0 of (N,4):(1,N))
            ("L(_, 1)", "(N,):(1,)"),
            ("L(2, _)", "(4,):(N,)"),
            ("slice_and_offset(L, (_, 3))", "(Layout((N,), (1,)), 3*N)"),
            ("L(_, N)", "(N,):(1,)"),
            ("L(1, 2, 3)", "error: rank: ..."),
        ],
    );
}

#[test]
fn substitution() {
    check(
        &["assume N", "assume K % 8 == 0", "L = (N,4):(1,N)"],
        &[
            // every symbol given: the concrete layout (N = 8)
            ("subs(L, N=8)", "(8, 4):(1, 8)"),
            ("size(subs(L, N=8))", "32"),
            ("subs(L, N=8) == ((8,4):(1,8))", "True"),
            ("subs(L, N=8)(5)", "5"),
            // symbols not given stay
            (
                "subs(((N,4),K):((1,N),4*N), N=2)",
                "((2, 4), K):((1, 2), 8)",
            ),
            ("subs((L, N, 3), N=2)", "(Layout((2, 4), (1, 2)), 2, 3)"),
            // a value that breaks a fact
            (
                "subs((K,2):(1,K), K=12)",
                "error: value: K = 12: the fact K % 8 == 0 does not hold",
            ),
            ("subs((K,2):(1,K), K=16)", "(16, 2):(1, 16)"),
            (
                "subs(L, N=0)",
                "error: value: N = 0: N must be at least 1...",
            ),
        ],
    );
}

#[test]
fn other_operations_refuse() {
    check(
        &["assume N", "L = (N,4):(1,N)"],
        &[
            (
                "flatten(L)",
                "error: type: flatten: the layout with symbols (N, 4):(1, N) is not accepted here; \
                 layouts with symbols are accepted by get, size, cosize, rank, depth, shape, stride, \
                 subs, by make_layout_like, coalesce, composition, complement, logical_divide, \
                 zipped_divide, tiled_divide, flat_divide, logical_product, zipped_product, \
                 tiled_product, flat_product, blocked_product, raked_product, right_inverse, \
                 left_inverse, max_common_vector and slice_and_offset, and by calling L(c) and \
                 mode access L[i] (`subs(L, N=...)` substitutes values)",
            ),
            ("make_tensor(L)", "error: type: make_tensor: the layout with symbols..."),
            ("blocked_product(L, (2, 2))", "error: type: blocked_product: a tiler by mode is not available on layouts with symbols..."),
            ("logical_product(L, (2, 2))", "error: type: logical_product: a tiler by mode is not available on layouts with symbols..."),
            ("make_tensor(L)", "error: type: make_tensor: the layout with symbols..."),
            ("idx2crd(3, (L, 2))", "error: type: idx2crd: the layout with symbols..."),
            ("coalesce(L, (1, None))", "error: type: coalesce: the by-mode form (a profile, coalesce[i]) is not available on layouts with symbols..."),
            ("coalesce[0](L)", "error: type: coalesce: the by-mode form..."),
            ("composition(Swizzle(1,2,3), L)", "error: type: composition: a swizzle is not available on layouts with symbols..."),
            ("complement(L, (4, 8))", "error: type: complement: with symbols the extension is an integer or a symbolic integer, got the tuple (4, 8)"),
            ("L + 1", "error: type: unsupported operand for '+': the layout with symbols (N, 4):(1, N)"),
            // the queries and None pass through as before
            ("complement(None)", "None"),
            ("composition(None, L)", "(N, 4):(1, N)"),
        ],
    );
}

/// The algebra on layouts with symbols; see the module documentation for
/// where the expected values come from (e.g. `coalesce((8,4):(1,8))` is
/// `32:1` and `coalesce((16,4):(1,16))` is `64:1`, so
/// `coalesce((N,4):(1,N))` is `4*N:1`).
#[test]
fn algebra() {
    check(
        &["assume N", "assume K >= 2", "L = (N,4):(1,N)"],
        &[
            ("coalesce(L)", "4*N:1"),
            ("coalesce((N,4):(4,1))", "(N, 4):(4, 1)"),
            ("coalesce((N,1):(1,7))", "N:1"),
            ("composition(L, N:1)", "N:1"),
            // an integer tiler n is n:1
            ("composition(L, N)", "N:1"),
            ("composition((N,4):(4,1), (N:1, 2:1))", "(N, 2):(4, 1)"),
            ("composition(L, (None, 2:2))", "(N, 2):(1, 2*N)"),
            ("composition[1](L, 2:2)", "(N, 2):(1, 2*N)"),
            // a concrete A and a symbolic B (64:2 and 8:1 give 8:2, 128:1 gives 128:2)
            ("composition(64:2, N:1)", "N:2"),
            ("complement(N:1, 4*N)", "4:N"),
            ("complement(N:1)", "1:N"),
            ("complement(4:1, 4*N)", "N:4"),
            ("right_inverse((N,4):(4,1))", "(4, N):(N, 1)"),
            ("right_inverse(L)", "4*N:1"),
            ("left_inverse(L)", "4*N:1"),
            // the order of the strides 1 < K needs K >= 2 (K = 1 ties them)
            ("left_inverse((4,K):(K,1))", "(K, 4):(4, 1)"),
            ("left_inverse((4,N):(N,1))", "error: value: left_inverse((4, N):(N, 1)): the symbols' facts do not decide the order of the strides 1 and N..."),
            ("logical_divide(4*N:1, N:1)", "(N, 4):(1, N)"),
            ("logical_divide(4*N:1, 4:1)", "(4, N):(1, 4)"),
            (
                "logical_divide((N,8):(1,N), (None, 2:1))",
                "(N, (2, 4)):(1, (N, 2*N))",
            ),
            (
                "logical_divide[1]((N,8):(1,N), 2:1)",
                "(N, (2, 4)):(1, (N, 2*N))",
            ),
            // a result without symbols is a plain layout: subs gives the concrete answer
            ("subs(coalesce(L), N=8) == coalesce(subs(L, N=8))", "True"),
        ],
    );
}

/// The divides that rearrange modes, the product and make_layout_like on
/// layouts with symbols. Expected values by hand: mode 0 `M:1` divided by
/// 16 is `(16, M/16):(1, 16)` (16 divides M), mode 1 `K:M` by 8 is
/// `(8, ceil(K/8)):(M, 8*M)`; zipped gathers the tiles, tiled spreads the
/// rests, flat spreads both. `complement((4,N):(1,4))` is `1:4*N`, so the
/// product's second mode is `3:4*N`. make_layout_like assigns compact
/// strides in the order 1 < 2 < 8*N.
#[test]
fn algebra_rearranging() {
    check(
        &["assume N, K", "assume M % 16 == 0", "assume P >= 2"],
        &[
            (
                "zipped_divide((M, K):(1, M), (16, 8))",
                "((16, 8), (M/16, (K + 7)//8)):((1, M), (16, 8*M))",
            ),
            (
                "tiled_divide((M, K):(1, M), (16, 8))",
                "((16, 8), M/16, (K + 7)//8):((1, M), 16, 8*M)",
            ),
            (
                "flat_divide((M, K):(1, M), (16, 8))",
                "(16, 8, M/16, (K + 7)//8):(1, M, 16, 8*M)",
            ),
            ("zipped_divide((M, K):(1, M), 16)", "(16, K*M/16):(1, 16)"),
            ("logical_product((4, N):(1, 4), 3:1)", "((4, N), 3):((1, 4), 4*N)"),
            // complement((2,P):(P,1)) is 1:2*P (strides 1 < P), so the tail
            // of the product is (3,4):(2*P, 6*P), paired mode by mode
            ("blocked_product((2, P):(P, 1), (3, 4):(1, 3))", "((2, 3), (P, 4)):((P, 2*P), (1, 6*P))"),
            ("raked_product((2, P):(P, 1), (3, 4):(1, 3))", "((3, 2), (4, P)):((2*P, P), (6*P, 1))"),
            ("tiled_product(4:1, (P, 3):(1, P))", "(4, P, 3):(1, 4, 4*P)"),
            ("make_layout_like((2, N, 4):(1, 8*N, 2))", "(2, N, 4):(1, 8, 2)"),
            (
                "make_layout_like((2, N, 4):(1, N, 2))",
                "error: value: make_layout_like((2, N, 4):(1, N, 2)): the symbols' facts do not decide the order of the strides N and 1...",
            ),
            // A == B: all 8*N offsets are common; a padded leading
            // dimension K + 4 shares only the first column (K)
            ("max_common_vector((N, 8):(1, N), (N, 8):(1, N))", "8*N"),
            ("max_common_vector((K, N):(1, K), (K, N):(1, K + 4))", "K"),
            // column- against row-major: 8 for N = 1, 1 for N >= 2
            (
                "max_common_vector((N, 8):(1, N), (N, 8):(8, 1))",
                "error: value: max_common_vector((N, 8):(1, N), (N, 8):(8, 1)): the symbols' facts do not decide whether N and 1 are equal...",
            ),
            (
                "zipped_divide((M, K):(1, M), (16, None))",
                "error: type: zipped_divide: a `None` mode in the tiler is not available on layouts with symbols...",
            ),
        ],
    );
}

/// The symbolic examples of the reference's behaviour and of rcute's
/// decisions on symbols (the values by hand: the reference's rows where
/// rcute agrees; errors where a condition is not proven — an unproven
/// order of `1` and `X >= 1`, the false injectivity of `(2,2):(X,X)`, `4`
/// against an extent `N` that may be below it; with facts, the proven
/// order gives the larger complement and right inverse).
#[test]
fn spec_section_7() {
    check(
        &["assume N, M, X, Y"],
        &[
            ("((N,4):(1,N))(5)", "N*(5//N) + (5 % N)"),
            ("idx2crd(7, (N,4))", "(7 % N, 7//N)"),
            ("size((N,4):(1,N))", "4*N"),
            ("coalesce((4,N):(1,4))", "4*N:1"),
            ("coalesce((4,8,N):(1,4,32))", "32*N:1"),
            ("coalesce((N,M):(1,N))", "N*M:1"),
            ("coalesce((2,4):(X,2*X))", "8:X"),
            ("right_inverse((N,M):(1,N))", "N*M:1"),
            ("right_inverse((N,4):(1,N))", "4*N:1"),
            ("right_inverse((M,N):(X,Y))", "error: value: right_inverse((M, N):(X, Y)): the symbols' facts do not decide..."),
            ("complement((2,N):(X,1))", "error: value: complement((2, N):(X, 1)): the symbols' facts do not decide the order of the strides 1 and X..."),
            ("complement((2,2):(X,X))", "error: injectivity: complement((2, 2):(X, X)): Non-injective layout in complement..."),
            ("make_layout_like((2,N,4):(1,X,2))", "error: value: make_layout_like((2, N, 4):(1, X, 2)): the symbols' facts do not decide the order of the strides X and 1..."),
            ("composition((12,N):(X,Y), 6:4)", "(3, 2):(4*X, Y)"),
            ("composition((N,8):(X,Y), 4:1)", "error: value: composition((N, 8):(X, Y), 4:1): the symbols' facts do not decide whether 4 is below N..."),
            ("logical_divide(N:1, 4)", "(4, (N + 3)//4):(1, 4)"),
            ("left_inverse((2,N):(X,1))", "error: value: left_inverse((2, N):(X, 1)): the symbols' facts do not decide the order of the strides 1 and X..."),
            ("left_inverse((N,M):(1,N))", "N*M:1"),
            ("assume K >= 2", "K >= 2"),
            ("complement((2,K,K):(K*K,K,1))", "1:2*K*K"),
            ("assume R % 8 == 0", "R % 8 == 0"),
            ("right_inverse((4,3,R):(3*R,R,1))", "(R, 3, 4):(12, 4, 1)"),
            ("size(right_inverse((4,3,R):(3*R,R,1)))", "12*R"),
            ("assume T % 16 == 0", "T % 16 == 0"),
            ("logical_divide((T,K):(1,2*T), 16)", "(16, (T/16, K)):(1, (16, 2*T))"),
            ("logical_divide((N,K):(1,N), (16,8))", "((16, (N + 15)//16), (8, (K + 7)//8)):((1, 16), (N, 8*N))"),
        ],
    );
}
