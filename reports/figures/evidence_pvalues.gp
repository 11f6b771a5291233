# evidence_pvalues.gp: gnuplot 5.4 script written by samplab report.
# In this directory, `gnuplot evidence_pvalues.gp` remakes evidence_pvalues.png and evidence_pvalues.svg from evidence_pvalues.dat.
if (!exists("outstem")) outstem = "evidence_pvalues"
set encoding utf8
set title "p-values of a correct sampler over 1000 seeds, N = 100000" noenhanced
set xlabel "p-value" noenhanced
set ylabel "seeds per bin (of 1,000)" noenhanced
set grid back lc rgb '#dddddd'
set key top right box opaque noenhanced
set boxwidth 0.045
set xrange [0:1]
set yrange [0:*]
set offsets 0,0,graph 0.25,0
set terminal pngcairo size 1000,620 font 'DejaVu Sans,13' linewidth 1.5
set output outstem.'.png'
plot 'evidence_pvalues.dat' using (($1+$2)/2):3 with boxes fs solid 0.6 lc rgb '#6baed6' title 'chi-square p-values', \
  'evidence_pvalues.dat' using (($1+$2)/2):4 with histeps lw 2 lc rgb '#e6550d' title 'G-test p-values', \
  50.0 with lines lw 2 dt 2 lc rgb '#333333' title 'expected (uniform)'
unset output
set terminal svg size 1000,620 font 'DejaVu Sans,13' linewidth 1.5 background '#ffffff'
set output outstem.'.svg'
plot 'evidence_pvalues.dat' using (($1+$2)/2):3 with boxes fs solid 0.6 lc rgb '#6baed6' title 'chi-square p-values', \
  'evidence_pvalues.dat' using (($1+$2)/2):4 with histeps lw 2 lc rgb '#e6550d' title 'G-test p-values', \
  50.0 with lines lw 2 dt 2 lc rgb '#333333' title 'expected (uniform)'
unset output
