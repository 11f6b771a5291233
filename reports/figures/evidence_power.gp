# evidence_power.gp: gnuplot 5.4 script written by samplab report.
# In this directory, `gnuplot evidence_power.gp` remakes evidence_power.png and evidence_power.svg from evidence_power.dat.
if (!exists("outstem")) outstem = "evidence_power"
set encoding utf8
set title "Power against fault size, N = 100000 draws (weather)" noenhanced
set xlabel "fault size delta (TV distance from p)" noenhanced
set ylabel "probability of detection" noenhanced
set grid back lc rgb '#dddddd'
set key bottom right box opaque noenhanced
set yrange [0:1.05]
set xrange [0:*]
set terminal pngcairo size 1000,620 font 'DejaVu Sans,13' linewidth 1.5
set output outstem.'.png'
plot 'evidence_power.dat' using 1:2 with linespoints pt 7 lw 2 lc rgb '#1f77b4' title 'chi-square', \
  'evidence_power.dat' using 1:3 with linespoints pt 5 lw 2 dt 2 lc rgb '#ff7f0e' title 'G-test', \
  'evidence_power.dat' using 1:4 with linespoints pt 9 lw 2 lc rgb '#2ca02c' title 'TV > null q99', \
  0.01 with lines lc rgb '#888888' dt 3 title 'alpha = 0.01', \
  0.9 with lines lc rgb '#444444' dt 4 title '90% power'
unset output
set terminal svg size 1000,620 font 'DejaVu Sans,13' linewidth 1.5 background '#ffffff'
set output outstem.'.svg'
plot 'evidence_power.dat' using 1:2 with linespoints pt 7 lw 2 lc rgb '#1f77b4' title 'chi-square', \
  'evidence_power.dat' using 1:3 with linespoints pt 5 lw 2 dt 2 lc rgb '#ff7f0e' title 'G-test', \
  'evidence_power.dat' using 1:4 with linespoints pt 9 lw 2 lc rgb '#2ca02c' title 'TV > null q99', \
  0.01 with lines lc rgb '#888888' dt 3 title 'alpha = 0.01', \
  0.9 with lines lc rgb '#444444' dt 4 title '90% power'
unset output
