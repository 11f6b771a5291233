# evidence_tv_vs_n.gp: gnuplot 5.4 script written by samplab report.
# In this directory, `gnuplot evidence_tv_vs_n.gp` remakes evidence_tv_vs_n.png and evidence_tv_vs_n.svg from evidence_tv_vs_n.dat.
if (!exists("outstem")) outstem = "evidence_tv_vs_n"
set encoding utf8
set title "TV distance against the number of draws (weather, V = 8)" noenhanced
set xlabel "draws N" noenhanced
set ylabel "total variation distance from p" noenhanced
set grid back lc rgb '#dddddd'
set key bottom left box opaque noenhanced
set logscale x
set format x '10^{%L}'
set logscale y
set format y '10^{%L}'
set terminal pngcairo size 1000,620 font 'DejaVu Sans,13' linewidth 1.5
set output outstem.'.png'
plot 'evidence_tv_vs_n.dat' using 1:2:4 with filledcurves lc rgb '#c6dbef' title 'null 1%-99% band', \
  'evidence_tv_vs_n.dat' using 1:3 with lines lc rgb '#2171b5' dt 2 lw 1.5 title 'null median', \
  'evidence_tv_vs_n.dat' using 1:5 with linespoints pt 7 ps 1.2 lc rgb '#238b45' lw 2 title 'correct sampler', \
  'evidence_tv_vs_n.dat' using 1:6 with linespoints pt 5 ps 1.2 lc rgb '#cb181d' lw 2 title 'fault delta = 0.005', \
  0.0050000000000000001 with lines lc rgb '#cb181d' dt 3 title 'delta (the fault itself)'
unset output
set terminal svg size 1000,620 font 'DejaVu Sans,13' linewidth 1.5 background '#ffffff'
set output outstem.'.svg'
plot 'evidence_tv_vs_n.dat' using 1:2:4 with filledcurves lc rgb '#c6dbef' title 'null 1%-99% band', \
  'evidence_tv_vs_n.dat' using 1:3 with lines lc rgb '#2171b5' dt 2 lw 1.5 title 'null median', \
  'evidence_tv_vs_n.dat' using 1:5 with linespoints pt 7 ps 1.2 lc rgb '#238b45' lw 2 title 'correct sampler', \
  'evidence_tv_vs_n.dat' using 1:6 with linespoints pt 5 ps 1.2 lc rgb '#cb181d' lw 2 title 'fault delta = 0.005', \
  0.0050000000000000001 with lines lc rgb '#cb181d' dt 3 title 'delta (the fault itself)'
unset output
