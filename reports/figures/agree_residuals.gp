# agree_residuals.gp: gnuplot 5.4 script written by samplab report.
# In this directory, `gnuplot agree_residuals.gp` remakes agree_residuals.png and agree_residuals.svg from agree_residuals.dat.
if (!exists("outstem")) outstem = "agree_residuals"
set encoding utf8
set title "Standardised residual of each token / rank bin" noenhanced
set xlabel "expected frequency p (probability per draw)" noenhanced
set ylabel "(observed - expected) / standard error" noenhanced
set grid back lc rgb '#dddddd'
set key bottom left box opaque horizontal noenhanced
set logscale x
set format x '10^{%L}'
set xrange [0.0007:1]
set yrange [-5:5]
set terminal pngcairo size 1000,620 font 'DejaVu Sans,13' linewidth 1.5
set output outstem.'.png'
plot 3 with lines lc rgb '#888888' dt 2 title '±3 standard errors', -3 with lines lc rgb '#888888' dt 2 notitle, \
  'agree_residuals.dat' index 0 using 5:7 with points pt 6 ps 1.6 lc rgb '#404040' title 'exprace', \
  'agree_residuals.dat' index 1 using 5:7 with points pt 2 ps 1.3 lc rgb '#6a6a6a' title 'cdf', \
  'agree_residuals.dat' index 2 using 5:7 with points pt 4 ps 1.1 lc rgb '#949494' title 'linear', \
  'agree_residuals.dat' index 3 using 5:7 with points pt 8 ps 1.0 lc rgb '#bdbdbd' title 'alias'
unset output
set terminal svg size 1000,620 font 'DejaVu Sans,13' linewidth 1.5 background '#ffffff'
set output outstem.'.svg'
plot 3 with lines lc rgb '#888888' dt 2 title '±3 standard errors', -3 with lines lc rgb '#888888' dt 2 notitle, \
  'agree_residuals.dat' index 0 using 5:7 with points pt 6 ps 1.6 lc rgb '#404040' title 'exprace', \
  'agree_residuals.dat' index 1 using 5:7 with points pt 2 ps 1.3 lc rgb '#6a6a6a' title 'cdf', \
  'agree_residuals.dat' index 2 using 5:7 with points pt 4 ps 1.1 lc rgb '#949494' title 'linear', \
  'agree_residuals.dat' index 3 using 5:7 with points pt 8 ps 1.0 lc rgb '#bdbdbd' title 'alias'
unset output
