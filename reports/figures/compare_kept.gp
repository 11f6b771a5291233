# compare_kept.gp: gnuplot 5.4 script written by samplab report.
# In this directory, `gnuplot compare_kept.gp` remakes compare_kept.png and compare_kept.svg from compare_kept.dat.
if (!exists("outstem")) outstem = "compare_kept"
set encoding utf8
set title "Same logits, same settings: tokens each framework keeps" noenhanced
set xlabel "case" noenhanced
set ylabel "tokens kept (log scale)" noenhanced
set grid back lc rgb '#dddddd'
set key top right box opaque noenhanced
set logscale y
set format y '10^{%L}'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set datafile missing '-'
set yrange [1:*]
unset grid
set grid ytics
set terminal pngcairo size 1100,620 font 'DejaVu Sans,13' linewidth 1.5
set output outstem.'.png'
cols = "#9400d3 #009e73 #56b4e9 #e69f00 #0072b2 #d55e00 #cc79a7 #000000 #8c564b #bcbd22 #7f7f7f #17becf #f0e442 #e51e10"
plot for [i=2:10] 'compare_kept.dat' using i:xtic(1) lc rgb word(cols, (i-2)%14+1) title columnheader(i)
unset output
set terminal svg size 1100,620 font 'DejaVu Sans,13' linewidth 1.5 background '#ffffff'
set output outstem.'.svg'
cols = "#9400d3 #009e73 #56b4e9 #e69f00 #0072b2 #d55e00 #cc79a7 #000000 #8c564b #bcbd22 #7f7f7f #17becf #f0e442 #e51e10"
plot for [i=2:10] 'compare_kept.dat' using i:xtic(1) lc rgb word(cols, (i-2)%14+1) title columnheader(i)
unset output
