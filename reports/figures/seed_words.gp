# seed_words.gp: gnuplot 5.4 script written by samplab report.
# In this directory, `gnuplot seed_words.gp` remakes seed_words.png and seed_words.svg from seed_words.dat.
if (!exists("outstem")) outstem = "seed_words"
set encoding utf8
set title "Randomness consumed after each token, one seed for all" noenhanced
set xlabel "tokens drawn (step)" noenhanced
set ylabel "random bits consumed (log scale)" noenhanced
set grid back lc rgb '#dddddd'
set key outside right top box noenhanced
set logscale y
set format y '10^{%L}'
set xrange [0.5:20.5]
set xtics 1,1,20
set terminal pngcairo size 1250,620 font 'DejaVu Sans,13' linewidth 1.5
set output outstem.'.png'
pts = "1 6 4 8 10 12 14 2 3 5 7 9 11 13"
cols = "#9400d3 #009e73 #56b4e9 #e69f00 #0072b2 #d55e00 #cc79a7 #000000 #8c564b #bcbd22 #7f7f7f #17becf #f0e442 #e51e10"
plot for [i=2:11] 'seed_words.dat' using 1:i with linespoints lw 2 lc rgb word(cols, (i-2)%14+1) pointtype int(word(pts, (i-2)%14+1)) pointsize (2.7-0.15*i) dashtype i title columnheader(i)
unset output
set terminal svg size 1250,620 font 'DejaVu Sans,13' linewidth 1.5 background '#ffffff'
set output outstem.'.svg'
pts = "1 6 4 8 10 12 14 2 3 5 7 9 11 13"
cols = "#9400d3 #009e73 #56b4e9 #e69f00 #0072b2 #d55e00 #cc79a7 #000000 #8c564b #bcbd22 #7f7f7f #17becf #f0e442 #e51e10"
plot for [i=2:11] 'seed_words.dat' using 1:i with linespoints lw 2 lc rgb word(cols, (i-2)%14+1) pointtype int(word(pts, (i-2)%14+1)) pointsize (2.7-0.15*i) dashtype i title columnheader(i)
unset output
