# exact_tail.gp — the exact audit's tail figure: induced against ideal probability per
# sampler (top, log-log) and their ratio (bottom; 0 = a token that is never drawn),
# from exact_tail_<dist>.dat (samplab exact --report-data DIR).
# Usage: gnuplot -e "dat='DIR/exact_tail_zipf49152_t08.dat'; out='DIR/exact_tail_zipf49152_t08.png'" analysis/exact_tail.gp
# Columns: rank, token, ideal, then one induced probability per sampler, named in the
# last header line.
if (!exists("dat")) dat = 'reports/exact_tail_zipf49152_t08.dat'
if (!exists("out")) out = 'reports/exact_tail_zipf49152_t08.png'
set terminal pngcairo enhanced size 1000,1000
set output out
hdr = system(sprintf("grep '^# rank' '%s' | tr '\\t' ' '", dat))
n = words(hdr) - 4
set multiplot layout 2,1
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set xlabel "ideal probability (float64 softmax)"
set ylabel "induced probability (exact count / 2^{bits})"
set key left top
set grid
plot x title "induced = ideal" lw 2 lc rgb "black", \
     for [i=1:n] dat using 3:(column(i+3) > 0 ? column(i+3) : 1/0) with points pt (i+3) ps 0.6 title word(hdr, i+4)
unset logscale y
set format y "%g"
set ylabel "induced / ideal"
set yrange [-0.05:*]
set key right top
plot 1 title "exact" lw 2 lc rgb "black", \
     for [i=1:n] dat using 3:(column(i+3) / $3) with points pt (i+3) ps 0.6 title word(hdr, i+4)
unset multiplot
