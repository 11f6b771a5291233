# cost_bits_per_draw.gp: gnuplot 5.4 script written by samplab report.
# In this directory, `gnuplot cost_bits_per_draw.gp` remakes cost_bits_per_draw.png and cost_bits_per_draw.svg from cost_bits_per_draw.dat.
if (!exists("outstem")) outstem = "cost_bits_per_draw"
set encoding utf8
set title "Randomness consumed per token drawn" noenhanced
set xlabel "vocabulary size (tokens)" noenhanced
set ylabel "random bits per token (log scale)" noenhanced
set grid back lc rgb '#dddddd'
set key top left box opaque noenhanced
set logscale y
set format y '10^{%L}'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set datafile missing '-'
set yrange [1:1e8]
set xtics nomirror
set grid ytics
unset grid
set grid ytics
set terminal pngcairo size 1100,620 font 'DejaVu Sans,13' linewidth 1.5
set output outstem.'.png'
cols = "#9400d3 #009e73 #56b4e9 #e69f00 #0072b2 #d55e00 #cc79a7 #000000 #8c564b #bcbd22 #7f7f7f #17becf #f0e442 #e51e10"
plot for [i=2:13] 'cost_bits_per_draw.dat' using i:xtic(sprintf('V = %d', int(column(1)))) lc rgb word(cols, (i-2)%14+1) title columnheader(i)
unset output
set terminal svg size 1100,620 font 'DejaVu Sans,13' linewidth 1.5 background '#ffffff'
set output outstem.'.svg'
cols = "#9400d3 #009e73 #56b4e9 #e69f00 #0072b2 #d55e00 #cc79a7 #000000 #8c564b #bcbd22 #7f7f7f #17becf #f0e442 #e51e10"
plot for [i=2:13] 'cost_bits_per_draw.dat' using i:xtic(sprintf('V = %d', int(column(1)))) lc rgb word(cols, (i-2)%14+1) title columnheader(i)
unset output
