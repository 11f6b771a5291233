# agree_observed_expected.gp: gnuplot 5.4 script written by samplab report.
# In this directory, `gnuplot agree_observed_expected.gp` remakes agree_observed_expected.png and agree_observed_expected.svg from agree_observed_expected.dat.
if (!exists("outstem")) outstem = "agree_observed_expected"
set encoding utf8
set title "Observed against expected frequency (all vectors and generators)" noenhanced
set xlabel "expected frequency p (probability per draw)" noenhanced
set ylabel "observed frequency (draws / N)" noenhanced
set grid back lc rgb '#dddddd'
set key top left box opaque noenhanced
set logscale x
set format x '10^{%L}'
set logscale y
set format y '10^{%L}'
set size square
set xrange [0.0007:1]
set yrange [0.0007:1]
set terminal pngcairo size 800,760 font 'DejaVu Sans,13' linewidth 1.5
set output outstem.'.png'
plot x with lines lc rgb '#888888' dt 2 title 'observed = expected', \
  'agree_observed_expected.dat' index 0 using 5:6 with points pt 6 ps 1.6 lc rgb '#404040' title 'exprace', \
  'agree_observed_expected.dat' index 1 using 5:6 with points pt 2 ps 1.3 lc rgb '#6a6a6a' title 'cdf', \
  'agree_observed_expected.dat' index 2 using 5:6 with points pt 4 ps 1.1 lc rgb '#949494' title 'linear', \
  'agree_observed_expected.dat' index 3 using 5:6 with points pt 8 ps 1.0 lc rgb '#bdbdbd' title 'alias'
unset output
set terminal svg size 800,760 font 'DejaVu Sans,13' linewidth 1.5 background '#ffffff'
set output outstem.'.svg'
plot x with lines lc rgb '#888888' dt 2 title 'observed = expected', \
  'agree_observed_expected.dat' index 0 using 5:6 with points pt 6 ps 1.6 lc rgb '#404040' title 'exprace', \
  'agree_observed_expected.dat' index 1 using 5:6 with points pt 2 ps 1.3 lc rgb '#6a6a6a' title 'cdf', \
  'agree_observed_expected.dat' index 2 using 5:6 with points pt 4 ps 1.1 lc rgb '#949494' title 'linear', \
  'agree_observed_expected.dat' index 3 using 5:6 with points pt 8 ps 1.0 lc rgb '#bdbdbd' title 'alias'
unset output
