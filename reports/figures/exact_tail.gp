# exact_tail.gp: gnuplot 5.4 script written by samplab report.
# In this directory, `gnuplot exact_tail.gp` remakes exact_tail.png and exact_tail.svg from exact_tail.dat.
if (!exists("outstem")) outstem = "exact_tail"
set encoding utf8
set title "Exact induced over ideal probability, zipf49152_t08" noenhanced
set xlabel "ideal probability (float64 softmax)" noenhanced
set ylabel "induced / ideal (0 = never drawn)" noenhanced
set grid back lc rgb '#dddddd'
set key top right box opaque noenhanced
set logscale x
set format x '10^{%L}'
set yrange [-0.05:2.05]
set terminal pngcairo size 1000,650 font 'DejaVu Sans,13' linewidth 1.5
set output outstem.'.png'
plot 1 with lines lw 2 lc rgb '#000000' title 'induced = ideal', \
  'exact_tail_zipf49152_t08.dat' using 3:(column(4) / $3) with points pt 6 ps 0.9 title 'candle', \
  'exact_tail_zipf49152_t08.dat' using 3:(column(5) / $3) with points pt 4 ps 0.9 title 'numpy', \
  'exact_tail_zipf49152_t08.dat' using 3:(column(6) / $3) with points pt 8 ps 0.9 title 'torch-replacement', \
  'exact_tail_zipf49152_t08.dat' using 3:(column(7) / $3) with points pt 10 ps 0.9 title 'gsl', \
  'exact_tail_zipf49152_t08.dat' using 3:(column(8) / $3) with points pt 12 ps 0.9 title 'cdf', \
  'exact_tail_zipf49152_t08.dat' using 3:(column(9) / $3) with points pt 2 ps 0.9 title 'alias', \
  'exact_tail_zipf49152_t08.dat' using 3:(column(10) / $3) with points pt 1 ps 0.9 title 'linear', \
  'exact_tail_zipf49152_t08.dat' using 3:(column(11) / $3) with points pt 3 ps 0.9 title 'llamacpp'
unset output
set terminal svg size 1000,650 font 'DejaVu Sans,13' linewidth 1.5 background '#ffffff'
set output outstem.'.svg'
plot 1 with lines lw 2 lc rgb '#000000' title 'induced = ideal', \
  'exact_tail_zipf49152_t08.dat' using 3:(column(4) / $3) with points pt 6 ps 0.9 title 'candle', \
  'exact_tail_zipf49152_t08.dat' using 3:(column(5) / $3) with points pt 4 ps 0.9 title 'numpy', \
  'exact_tail_zipf49152_t08.dat' using 3:(column(6) / $3) with points pt 8 ps 0.9 title 'torch-replacement', \
  'exact_tail_zipf49152_t08.dat' using 3:(column(7) / $3) with points pt 10 ps 0.9 title 'gsl', \
  'exact_tail_zipf49152_t08.dat' using 3:(column(8) / $3) with points pt 12 ps 0.9 title 'cdf', \
  'exact_tail_zipf49152_t08.dat' using 3:(column(9) / $3) with points pt 2 ps 0.9 title 'alias', \
  'exact_tail_zipf49152_t08.dat' using 3:(column(10) / $3) with points pt 1 ps 0.9 title 'linear', \
  'exact_tail_zipf49152_t08.dat' using 3:(column(11) / $3) with points pt 3 ps 0.9 title 'llamacpp'
unset output
